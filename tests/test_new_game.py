"""A new game joins Savanna as a plug-in, by an entry point (docs/guides/adding-a-game.md).

The toy games of tests/toy_game -- Nim in the ten-module shape, a three-player dice race
with chance nodes in the six required modules, and Kuhn poker for two or three with cards dealt
face down at chance nodes -- are copied to a temporary folder outside the project, beside the
metadata a package installer writes
(``toy_games-0.dist-info/entry_points.txt``, the ``savanna.games`` group). No file of
Savanna names them, and yet every generic test (those parametrised over the registered games,
the command line's lists, the architecture's module checks), Gymnasium's env checker, a match
and ``savanna bench`` run on them. Each runs in a child process, so that the registrations do
not leak into this one.
"""
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy_game"
TOYS = ("nim_toy", "race_toy", "kuhn_toy")
ENTRY_POINTS = "[savanna.games]\n" + "".join(f"{name} = {name}\n" for name in TOYS)


def distribution(folder, name, entry_points):
    """The metadata pip writes for an installed distribution, in ``folder`` (on the path)."""
    info = folder / f"{name.replace('-', '_')}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n")
    (info / "entry_points.txt").write_text(entry_points)


def install_toy_games(folder):
    """The toy games and their distribution's entry points in ``folder``: installed as
    plug-ins once ``folder`` is on the import path."""
    for name in TOYS:
        shutil.copytree(TOY / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    distribution(folder, "toy-games", ENTRY_POINTS)
    return folder


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """A folder outside the project holding the toy games as plug-ins."""
    return install_toy_games(tmp_path_factory.mktemp("elsewhere"))


def run(elsewhere, *args):
    """``python *args`` from the checkout's root, with ``elsewhere`` on the import path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(elsewhere)])}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True)


def test_the_toy_games_keep_their_shapes_and_are_named_nowhere_in_savanna():
    modules = {name: {path.stem for path in (TOY / name).glob("*.py")} for name in TOYS}
    assert modules["nim_toy"] == {"__init__", "spec", "_kernels", "_observe", "_validity",
                                  "reference", "game", "notation", "render", "twin"}
    assert modules["race_toy"] == {"__init__", "_kernels", "reference", "game", "notation",
                                   "twin"}
    assert modules["kuhn_toy"] == modules["race_toy"]
    shipped = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][
        "savanna.games"]
    assert not set(TOYS) & {*shipped, *(package.split(".")[-1] for package in shipped.values())}


@pytest.mark.slow
def test_the_generic_suite_passes_on_the_toy_games(elsewhere):
    """Every test parametrised over the registered games' configurations, the conformance
    suite's and the project's (``-k`` keeps the toy games'), then the suites that check every
    registered game at once."""
    done = run(elsewhere, "-m", "pytest", "-p", "no:cacheprovider", "-rA",
               "-k", " or ".join(TOYS))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.findall(r"^PASSED (\S+)", done.stdout, re.M)
    for name in TOYS:
        assert len([test for test in passed if name in test]) >= 100, name
    assert any(test.startswith("tests/interop/") and "race_toy" in test for test in passed)
    done = run(elsewhere, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_architecture.py",
               "tests/test_docs.py::test_the_site_has_its_pages",
               "tests/experiments/test_savanna_cli.py")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


CHECK_AND_PLAY = """
import gymnasium
from gymnasium.utils.env_checker import check_env
from savanna import make_game
from savanna.agents import make_agent, play_match

for options in ({}, {"misere": True}):
    env = gymnasium.make("savanna/NimToy-v0", **options)
    check_env(env.unwrapped)
    assert env.observation_space["observation"].high.max() == 7  # the declared obs_high
for options in ({}, {"goal": 4}):
    check_env(gymnasium.make("savanna/Race_toy-v0", **options).unwrapped)
envs = gymnasium.make_vec("savanna/Race_toy-v0", num_envs=3)
envs.reset(seed=0)
result = play_match(make_game("nim_toy"), [make_agent("mcts:sims=200"), make_agent("random")],
                    games=20, seed=0, workers=1, progress=False)
print(result.games, result.plies.max(), result.returns[:, 0].mean())
race = play_match(make_game("race_toy"), [make_agent(a) for a in ("mcts", "random", "random")],
                  games=6, seed=0, workers=1, progress=False)
print(race.games)
"""


def test_the_toy_games_make_checked_envs_and_play_matches(elsewhere):
    """Their Gymnasium ids are the default ``savanna/<Name>-v0``."""
    done = run(elsewhere, "-c", CHECK_AND_PLAY)
    assert done.returncode == 0, done.stderr[-3000:]
    games, plies, mcts_return, race_games = done.stdout.split()
    assert int(games) == 20 and int(plies) <= 15
    assert float(mcts_return) > 0.5  # search beats random play on it
    assert int(race_games) == 6


def test_savanna_bench_measures_every_registered_game(elsewhere):
    """The default list is every registered game, the plug-ins' too; a plug-in is measured
    (on a tiny budget: ``--quick``, one game)."""
    done = run(elsewhere, "-m", "savanna.experiments", "bench", "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    listed = re.search(r"default: all of \[(.*?)\]", " ".join(done.stdout.split()))[1]
    assert {"zebres", "bonobo", "banjooli", "connect_four", *TOYS} <= set(
        re.findall(r"'(\w+)'", listed))
    done = run(elsewhere, "-m", "savanna.experiments", "bench", "--quick", "--no-write",
               "--games", "race_toy")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "## race_toy — random play" in done.stdout
    for row in ("kernel random playouts", "MCTS", "reference random playouts",
                "Gymnasium env", "vector env, n=4096", "PPO training"):
        assert f"| {row}" in done.stdout, row


BROKEN = """[savanna.games]
broken = broken_game
missing = no_such_package
bad-value = not a module!
zebres = nim_toy

[savanna.agents]
Two.Words = broken_game:Agent
classless = broken_game
bugged = broken_game:Agent
"""


def test_a_bad_plug_in_is_one_line_and_the_other_games_still_load(elsewhere, tmp_path):
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('a bug in the plug-in')\n")
    distribution(tmp_path, "broken-plugins", BROKEN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (ROOT, elsewhere, tmp_path)))}
    done = subprocess.run(
        [sys.executable, "-c", "import savanna; from savanna.agents import AGENTS; "
                               "print(sorted(savanna.GAMES), sorted(AGENTS))"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    from savanna.registry import GAMES  # this process's games: the project's and any plug-in
    assert done.stdout.split("] [")[0] == str(sorted({*GAMES, *TOYS}))[:-1]
    assert "'mcts'" in done.stdout and "Two.Words" not in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 6, done.stderr
    expected = [
        "broken = 'broken_game' of broken-plugins: RuntimeError: a bug in the plug-in",
        "missing = 'no_such_package' of broken-plugins: ModuleNotFoundError: No module named "
        "'no_such_package'",
        "bad-value = 'not a module!' of broken-plugins: its value must be 'module' or "
        "'module:attribute'",
        "zebres = 'nim_toy' of broken-plugins: the name 'zebres' is taken by savanna-games",
        "Two.Words = 'broken_game:Agent' of broken-plugins: an agent's name is lower-case",
        "classless = 'broken_game' of broken-plugins: an agent's value is 'module:Class'"]
    for line, text in zip(sorted(lines), sorted(expected)):
        assert line.startswith("savanna: skipped plug-in ") and text in line, (line, text)


def test_a_broken_agent_plug_in_is_one_line_when_used_and_the_others_still_play(elsewhere,
                                                                                tmp_path):
    """An agent plug-in whose module fails to import stays listed (the list reads entry points,
    not modules); naming it is one line and exit status 2, naming another plays."""
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('a bug in the plug-in')\n")
    distribution(tmp_path, "broken-plugins", BROKEN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (ROOT, elsewhere, tmp_path)))}

    def match(*agents):
        return subprocess.run([sys.executable, "-m", "savanna.experiments", "match", "nim_toy",
                               *agents, "--games", "2", "--workers", "1", "--out",
                               tmp_path / "-".join(agents)],
                              cwd=ROOT, env=env, capture_output=True, text=True)

    done = match("bugged", "random")
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines()
              if not line.startswith("savanna: skipped plug-in")]
    assert errors == ["savanna match: error: agent 'bugged' is not available (RuntimeError: a "
                      "bug in the plug-in)"], done.stderr
    assert match("random", "random").returncode == 0
