"""The command line as a user runs it, records on: ``savanna match`` and ``savanna tournament``
with ``--backend ray`` write the folder the local backend writes with the same seed (results,
CSVs and records byte for byte; the JSON but its wall time), and Ray adds nothing to stderr."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from savanna.cli.main import main
from tests.ray.test_arena import assert_same_folders

ROOT = Path(__file__).resolve().parents[2]

COMMANDS = [
    ["match", "zebres", "random", "greedy", "--games", "6", "--seed", "11"],
    ["tournament", "bonobo", "random", "greedy", "random", "--games-per-pair", "3",
     "-o", "num_players=2", "--seed", "4"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[argv[0] for argv in COMMANDS])
def test_the_ray_backend_writes_the_local_folder(argv, two_nodes, tmp_path, capsys):
    local, ray = tmp_path / "local", tmp_path / "ray"
    assert main([*argv, "--no-progress", "--workers", "1", "--out", str(local)]) == 0
    assert main([*argv, "--no-progress", "--backend", "ray", "--out", str(ray)]) == 0
    assert capsys.readouterr().err == ""
    assert (local / "records.jsonl").exists()
    assert_same_folders(local, ray)


def test_a_ray_started_for_the_command_adds_nothing_to_stderr(tmp_path):
    """A Ray started for the command (``--address local``: not the tests' cluster, which a
    bare ``ray.init()`` on this machine would join) keeps its token authentication notice
    and other start-up messages out of stderr."""
    pytest.importorskip("ray")
    done = subprocess.run(
        [sys.executable, "-m", "savanna.cli", "match", "zebres", "random", "random",
         "--games", "2", "--backend", "ray", "--address", "local", "--no-progress",
         "--out", str(tmp_path / "m")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        text=True, timeout=300)
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "m" / "records.jsonl").exists()
