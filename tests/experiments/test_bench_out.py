"""``savanna bench`` writes its RESULTS.md only where the user says: ``--out``, by default the
working folder; never into the installed package."""
from pathlib import Path

import pytest

from savanna.benchmarks import report, throughput
from savanna.cli.main import main

PACKAGED = Path(report.__file__).with_name("RESULTS.md")


@pytest.fixture
def measured(monkeypatch, tmp_path):
    """The measurement replaced by one row, so that only the writing is tested."""
    monkeypatch.setattr(throughput, "measure_game", lambda name, quick, progress: [
        ("random games", 1234.0, "games/s")])
    monkeypatch.chdir(tmp_path)
    before = PACKAGED.read_bytes() if PACKAGED.exists() else None
    yield tmp_path
    assert (PACKAGED.read_bytes() if PACKAGED.exists() else None) == before


def test_bench_writes_into_the_working_folder_by_default(measured, capsys):
    assert main(["bench", "--games", "zebres"]) == 0
    written = measured / "RESULTS.md"
    assert "| random games | 1,234 | games/s |" in written.read_text()
    assert f"written to {Path('RESULTS.md')}" in capsys.readouterr().out


def test_bench_writes_into_out(measured):
    assert main(["bench", "--games", "zebres", "--out", "results/today"]) == 0
    assert (measured / "results" / "today" / "RESULTS.md").is_file()
    assert not (measured / "RESULTS.md").exists()
