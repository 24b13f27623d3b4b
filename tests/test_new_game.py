"""A new game joins Savanna with one registration call (docs/guides/adding-a-game.md).

The toy game of tests/toy_game (Nim in the nine-module shape, with its twin) is copied to a
temporary folder outside the project and imported from there: no file of Savanna names it,
its package's ``register_game`` call is all there is, and yet the conformance suite, the
Gymnasium env checker and a match run on it. Each runs in a child process, so that the
registration does not leak into this one.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy_game"


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """A folder outside the project holding ``nim_toy/`` and ``tests/nim_toy/twin.py``."""
    folder = tmp_path_factory.mktemp("elsewhere")
    shutil.copytree(TOY / "nim_toy", folder / "nim_toy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "tests" / "nim_toy").mkdir(parents=True)
    shutil.copy(TOY / "twin.py", folder / "tests" / "nim_toy" / "twin.py")
    return folder


def run(elsewhere, *args):
    """``python *args`` from the checkout's root, with ``elsewhere`` on the import path."""
    env = {**os.environ, "PYTHONPATH": str(elsewhere)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True)


def test_the_toy_game_is_in_the_nine_module_shape_and_named_nowhere_in_savanna():
    modules = {path.stem for path in (TOY / "nim_toy").glob("*.py")}
    assert modules == {"__init__", "spec", "_kernels", "_observe", "_validity", "reference",
                       "game", "notation", "render"}
    from savanna.registry import GAMES
    assert "nim_toy" not in GAMES


def test_the_conformance_suite_passes_on_the_toy_game(elsewhere):
    """``-p nim_toy`` imports the package, whose registration adds its configurations to the
    suite's parameters (tests/conftest.py reads the registry); ``-k`` keeps only those."""
    done = run(elsewhere, "-m", "pytest", "-p", "nim_toy", "-p", "no:cacheprovider",
               "-k", "nim_toy", "tests/conformance")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert int(re.search(r"(\d+) passed", done.stdout)[1]) >= 40


CHECK_AND_PLAY = """
import gymnasium, nim_toy
from gymnasium.utils.env_checker import check_env
from savanna import make_game
from savanna.agents import make_agent, play_match

for options in ({}, {"misere": True}):
    env = gymnasium.make("savanna/NimToy-v0", **options)
    check_env(env.unwrapped)
    assert env.observation_space["observation"].high.max() == 7  # the declared obs_high
envs = gymnasium.make_vec("savanna/NimToy-v0", num_envs=3)
envs.reset(seed=0)
result = play_match(make_game("nim_toy"), [make_agent("mcts:sims=200"), make_agent("random")],
                    games=20, seed=0, workers=1, progress=False)
print(result.games, result.plies.max(), result.returns[:, 0].mean())
"""


def test_the_toy_game_makes_checked_envs_and_plays_a_match(elsewhere):
    done = run(elsewhere, "-c", CHECK_AND_PLAY)
    assert done.returncode == 0, done.stderr[-3000:]
    games, plies, mcts_return = done.stdout.split()
    assert int(games) == 20 and int(plies) <= 15
    assert float(mcts_return) > 0.5  # search beats random play on it
