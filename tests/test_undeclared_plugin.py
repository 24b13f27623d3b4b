"""``savanna check`` on a plug-in: a copy of the Kuhn-like toy that deals each card face down
but declares no private chance outcome fails with one line that says to declare it private;
the toy as written passes the same clause."""
import os
import shutil
import subprocess
import sys

import pytest

from tests.test_new_game import ROOT, TOY, distribution


def kuhn_copy(folder, declared):
    """The Kuhn-like toy as a plug-in in ``folder``; undeclared, without ``private_chance``
    and ``chance_private_to``."""
    shutil.copytree(TOY / "kuhn_toy", folder / "kuhn_toy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    if not declared:
        game = folder / "kuhn_toy" / "game.py"
        text = game.read_text()
        assert "    private_chance = True\n" in text and "def chance_private_to(" in text
        game.write_text(text.replace("    private_chance = True\n", "").replace(
            "def chance_private_to(", "def dealt_to("))
    distribution(folder, "kuhn-toy", "[savanna.games]\nkuhn_toy = kuhn_toy\n")
    return folder


@pytest.mark.parametrize("declared", [False, True])
def test_savanna_check_finds_an_undeclared_private_deal(tmp_path, declared):
    folder = kuhn_copy(tmp_path, declared)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)])}
    done = subprocess.run([sys.executable, "-m", "savanna.conformance", "kuhn_toy", "-k",
                           "declared_private"], cwd=folder, env=env, capture_output=True,
                          text=True)
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    if declared:
        assert done.returncode == 0 and not failed, done.stdout + done.stderr
        return
    assert done.returncode == 1 and len(failed) == 2, done.stdout + done.stderr  # 2 and 3 seats
    for line in failed:
        assert "declare it private (private_chance = True, and chance_private_to(row)" in line
