"""``savanna check`` on a plug-in: a copy of the Kuhn-like toy that deals each card face down
but declares no private chance outcome fails with one line that says to declare it private,
and a copy whose legal moves tell the seat to move the next seat's card fails with one line
naming the seat and the moves; the toy as written passes the same clauses."""
import os
import shutil
import subprocess
import sys

import pytest

from tests.test_new_game import ROOT, TOY, distribution


def kuhn_copy(folder, declared, leaking=False):
    """The Kuhn-like toy as a plug-in in ``folder``; undeclared, without ``private_chance``
    and ``chance_private_to``; ``leaking``: no bet allowed against the next seat's ace (the
    seat to move learns the next seat's card from its legal moves)."""
    shutil.copytree(TOY / "kuhn_toy", folder / "kuhn_toy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    if leaking:
        kernels = folder / "kuhn_toy" / "_kernels.py"
        text = kernels.read_text()
        legal = "    out[0] = 0\n    out[1] = 1\n    return 2\n"
        assert legal in text
        kernels.write_text(text.replace(legal, (
            "    out[0] = 0\n    r = s[i]\n"
            "    if r.cards[(r.moves + 1) % r.players] == r.players:\n        return 1\n"
            "    out[1] = 1\n    return 2\n")))
    if not declared:
        game = folder / "kuhn_toy" / "game.py"
        text = game.read_text()
        assert "    private_chance = True\n" in text and "def chance_private_to(" in text
        game.write_text(text.replace("    private_chance = True\n", "").replace(
            "def chance_private_to(", "def dealt_to("))
    distribution(folder, "kuhn-toy", "[savanna.games]\nkuhn_toy = kuhn_toy\n")
    return folder


def check(folder, clause):
    """``savanna check kuhn_toy -k clause`` on the copy in ``folder``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)])}
    return subprocess.run([sys.executable, "-m", "savanna.conformance", "kuhn_toy", "-k",
                           clause], cwd=folder, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("declared", [False, True])
def test_savanna_check_finds_an_undeclared_private_deal(tmp_path, declared):
    done = check(kuhn_copy(tmp_path, declared), "declared_private")
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    if declared:
        assert done.returncode == 0 and not failed, done.stdout + done.stderr
        return
    assert done.returncode == 1 and len(failed) == 2, done.stdout + done.stderr  # 2 and 3 seats
    for line in failed:
        assert "declare it private (private_chance = True, and chance_private_to(row)" in line


@pytest.mark.parametrize("leaking", [True, False])
def test_savanna_check_finds_a_seat_that_learns_a_secret_from_its_legal_moves(tmp_path,
                                                                              leaking):
    done = check(kuhn_copy(tmp_path, declared=True, leaking=leaking),
                 "decides_from_nothing_it_has_not_seen")
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    if not leaking:
        assert done.returncode == 0 and not failed, done.stdout + done.stderr
        return
    assert done.returncode == 1 and len(failed) == 2, done.stdout + done.stderr  # 2 and 3 seats
    for line in failed:
        assert "redrawing what seat 0 has not seen (resample_hidden(s, 0)) changes its legal " \
            "moves" in line, line
        assert "legal moves [0] in the true state, [0, 1] in the redrawn one" in line or \
            "legal moves [0, 1] in the true state, [0] in the redrawn one" in line, line
