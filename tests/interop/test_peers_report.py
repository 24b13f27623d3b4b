"""The side-by-side benchmark's report (benchmarks/peers.py) on made-up rows: ratios pair the
rows that ``RATIOS`` names (the fastest peer that ran), percentages stand alone, skipped rows
say why, wide spreads are flagged, the chart is written."""
import sys

import pytest

from savanna.benchmarks import peers
from savanna.benchmarks.throughput import Rate

UNIT = "steps/s"


def rate(median, spread=0.0):
    return Rate(median * (1 - spread / 2), median, median * (1 + spread / 2))


RESULTS = [
    ("c4 playouts", [peers.Row("ours", "Savanna playouts", rate(1000.0), UNIT),
                     peers.Row("bare", "bare loop", rate(1500.0), UNIT),
                     peers.Row("os_bots", "OpenSpiel bots", rate(100.0, spread=0.5), UNIT)]),
    ("c4 strength", [peers.Row("won", "Savanna vs OpenSpiel", rate(72.5), "% won", "200 games")]),
    ("Zèbres MCTS", [peers.Row("ours", "Savanna MCTS", rate(1000.0), UNIT),
                     peers.Row("os_python", "OpenSpiel MCTSBot (Python)", rate(10.0), UNIT),
                     peers.Row("os_cpp", "OpenSpiel MCTSBot (C++)", None, UNIT,
                               "skipped: it crashed")]),
    ("c4 vector env", [peers.Row("ours_adaptive", "Savanna vector env", rate(8.0), UNIT),
                       peers.Row("pgx", "pgx connect_four", None, UNIT,
                                 "skipped: pgx is not installed")]),
]


def test_ratios_pair_the_named_rows_and_keep_percentages():
    assert peers.ratios(RESULTS) == [
        ("c4 playouts", "Savanna playouts / bare loop", 1000.0 / 1500.0, 0.5),
        ("c4 playouts", "Savanna playouts / OpenSpiel bots", 10.0, 5.0),
        ("c4 strength", "Savanna vs OpenSpiel", 72.5, 60.0),
        ("Zèbres MCTS", "Savanna MCTS / OpenSpiel MCTSBot (Python)", 100.0, 50.0)]


def test_table_shows_skips_spreads_and_verdicts():
    text = peers.table(RESULTS)
    assert "| — | — | — | steps/s | skipped: it crashed |" in text
    assert "skipped: pgx is not installed" in text
    assert "**spread 50% > 20%**" in text and text.count("**spread") == 1
    assert "0.67× | ≥ 0.5× met |" in text and "10.00× | ≥ 5× met |" in text
    assert "72.5% | ≥ 60% met |" in text


def test_chart_is_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is the plot extra")
    path = peers.chart(RESULTS, tmp_path / "peers.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pgx_row_is_skipped_with_the_install_line_when_pgx_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "pgx", None)  # import pgx -> ImportError
    with pytest.raises(peers.Skipped, match=r"pip install '\.\[bench-peers\]'"):
        peers.pgx_connect_four(steps=1)


def test_bare_loop_plays_whole_games():
    """The bare loop's x wins over many games: about the share of random games that x wins."""
    from savanna.connect_four.game import ConnectFourGame

    game = ConnectFourGame()
    returns, _ = game.random_playouts(game.init(4000, rng=0), rng=1)
    ours = (returns[:, 0] > 0).mean()
    bare = peers.bare_playouts(4000, peers.make_streams(2, 1)) / 4000
    assert abs(bare - ours) < 0.05
