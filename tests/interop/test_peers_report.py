"""The side-by-side benchmark's report (benchmarks/peers.py) on made-up rows: ratios pair the
first Savanna row with the first peer that ran, skipped rows say why, the chart is written."""
import sys

import pytest

from benchmarks import peers

UNIT = "steps/s"
RESULTS = [
    ("MCTS", [("Savanna MCTS", 1000.0, UNIT, ""), ("OpenSpiel MCTSBot (Python)", 10.0, UNIT, ""),
              ("OpenSpiel MCTSBot (C++)", None, UNIT, "skipped: it crashed")]),
    ("PPO", [("Savanna PPO", 30.0, UNIT, ""), ("MaskablePPO", 10.0, UNIT, "")]),
    ("pgx", [("Savanna vector env, 1 thread", 5.0, UNIT, ""),
             ("Savanna vector env, 2 threads", 8.0, UNIT, ""),
             ("pgx connect_four", None, UNIT, "skipped: pgx is not installed")]),
]


def test_ratios_pair_the_first_savanna_row_with_the_first_peer_that_ran():
    assert peers.ratios(RESULTS) == [
        ("MCTS", "Savanna MCTS / OpenSpiel MCTSBot (Python)", 100.0, 50.0),
        ("PPO", "Savanna PPO / MaskablePPO", 3.0, 4.0)]


def test_table_shows_skips_and_verdicts():
    text = peers.table(RESULTS)
    assert "| — | skipped: it crashed |" in text and "skipped: pgx is not installed" in text
    assert "100.0× | ≥ 50× met |" in text and "3.0× | ≥ 4× NOT met |" in text


def test_chart_is_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is the plot extra")
    path = peers.chart(RESULTS, tmp_path / "peers.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pgx_row_is_skipped_with_the_install_line_when_pgx_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "pgx", None)  # import pgx -> ImportError
    with pytest.raises(peers.Skipped, match=r"pip install '\.\[bench-peers\]'"):
        peers.pgx_connect_four(steps=1, repeats=1)
