"""The package installs anywhere: ``python -m build`` makes an sdist and a wheel, and the wheel,
installed into a fresh virtual environment outside the checkout, runs ``savanna --version``, a
short ``savanna match`` and ``import savanna``, and loads the shipped baseline models (each
plays a move with its network alone: the search is tested in the checkout, and compiling it
again in the fresh environment's empty numba cache took two minutes).

To stay fast and offline, the fresh environment reuses this one's installed dependencies (a
``.pth`` line naming its site-packages: a path, so the editable install of the checkout that
lives there is not activated) and the wheel is installed with ``--no-deps``. The package itself
comes from the wheel alone: the commands run in a temporary folder without ``PYTHONPATH``, and
every package is checked to be imported from the fresh environment.
"""
import inspect
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.fresh_venv import fresh_venv

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGES = PROJECT["tool"]["setuptools"]["packages"]
FOLDERS = PROJECT["tool"]["setuptools"]["package-dir"]
DIST = PROJECT["project"]["name"].replace("-", "_")  # as wheel and sdist file names spell it

pytest.importorskip("build")


def package_folder(package):
    """The checkout folder of ``package``: its longest prefix that package-dir maps."""
    parts = package.split(".")
    cut = max((i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in FOLDERS), default=0)
    return ROOT.joinpath(FOLDERS[".".join(parts[:cut])] if cut else "", *parts[cut:])


def run(*command, cwd, env=None):
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(map(str, command))}:\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT, cwd=ROOT)
    return out


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory):
    """A fresh environment with the wheel installed, and the environment to run it in."""
    home = tmp_path_factory.mktemp("venv")
    python, site = fresh_venv(home / "env")
    wheel, = dist.glob("*.whl")
    # without PYTHONPATH: a checkout on it holds the egg-info that build leaves, which pip
    # would take for the package installed already
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["NUMBA_CACHE_DIR"] = str(home / "numba-cache")
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
        "--no-index", wheel, cwd=home, env=env)
    return home, python, site, env


def test_build_makes_an_sdist_and_a_wheel_with_the_licence(dist):
    sdist, = dist.glob("*.tar.gz")
    wheel, = dist.glob("*.whl")
    version = PROJECT["project"]["version"]
    assert sdist.name == f"{DIST}-{version}.tar.gz"
    assert wheel.name == f"{DIST}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"{DIST}-{version}.dist-info/METADATA").decode()
        assert any(name.endswith("licenses/LICENSE") for name in archive.namelist())
    assert f"Version: {version}" in metadata and "License-Expression: MIT" in metadata


def test_the_wheel_carries_every_package_data_file(dist):
    """Every ``py.typed``, shipped model and file of the browser board's page of the checkout
    is in the wheel."""
    wheel, = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for package in PACKAGES:
        folder, target = package_folder(package), package.replace(".", "/")
        for path in [*folder.glob("py.typed"), *folder.glob("baselines/*.pt"),
                     *folder.glob("static/*")]:
            assert f"{target}/{path.relative_to(folder).as_posix()}" in names
        assert f"{target}/__init__.py" in names
    assert "savanna/py.typed" in names  # the check above looked in the right folders
    assert "savanna/board/static/board.js" in names


def test_imports_come_from_the_fresh_environment(venv):
    home, python, site, env = venv
    out = run(python, "-c", "import importlib, json, sys; print(json.dumps({name: "
              "importlib.import_module(name).__file__ for name in sys.argv[1:]}))",
              *PACKAGES, cwd=home, env=env)
    for name, path in json.loads(out).items():
        assert Path(path).is_relative_to(site), f"{name} imported from {path}"


def test_savanna_version_is_the_metadata_version(venv):
    home, python, site, env = venv
    out = run(python.parent / "savanna", "--version", cwd=home, env=env)
    assert out.strip() == f"savanna {PROJECT['project']['version']}"


def test_a_short_match(venv):
    home, python, site, env = venv
    run(python.parent / "savanna", "match", "zebres", "random", "greedy", "--games", "2",
        "--out", home / "match", cwd=home, env=env)
    result = json.loads((home / "match" / "match.json").read_text())
    assert result["metadata"]["package_version"] == PROJECT["project"]["version"]
    assert (home / "match" / "records.jsonl").read_text().count("\n") == 2


LOAD_BASELINES = inspect.cleandoc('''
    import inspect, numpy as np
    from savanna import make_game
    from savanna.agents import make_agent
    from savanna.agents.play.az_agent import shipped_baselines
    for name in shipped_baselines():
        game_name, players = name.removesuffix("p.pt").rsplit("-", 1)
        options = {"num_players": int(players)} if "num_players" in inspect.signature(
            make_game(game_name).__class__).parameters else {}
        game = make_game(game_name, **options)
        agent = make_agent("az-policy:baseline")  # the network's move: no search to compile
        rng = np.random.default_rng(0)
        states = game.init(1, rng=0)
        while game.current_player(states)[0] < 0:  # a first chance node: the dice, a tile
            game.apply_chance(states, game.sample_chance(states, rng))
        print(name, agent.act(game, states, rng))
''')


@pytest.mark.slow
def test_the_shipped_baselines_load(venv):
    home, python, site, env = venv
    shipped = sorted(p.name for p in (ROOT / "agents" / "models" / "baselines").glob("*.pt"))
    out = run(python, "-c", LOAD_BASELINES, cwd=home, env=env)
    assert [line.split()[0] for line in out.splitlines()] == shipped


GAME_PLUGIN = """
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "race-toy"
version = "0.1"

[project.entry-points."savanna.games"]
race_toy = "race_toy"

[tool.setuptools]
packages = ["race_toy"]
"""
AGENT_PLUGIN = """
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "highest-agent"
version = "0.1"

[project.entry-points."savanna.agents"]
highest = "highest_agent:HighestAgent"

[tool.setuptools]
py-modules = ["highest_agent"]
"""
AGENT = '''
class HighestAgent:
    """Plays the highest legal action."""

    name = "highest"

    def __init__(self, after: int = 0):
        self.after = after

    def settings(self):
        return {"after": self.after}

    def act(self, game, states, rng):
        mask = game.legal_mask(states)
        return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
'''


def test_a_game_plug_in_and_an_agent_plug_in_install_beside_the_wheel_and_play(venv,
                                                                                tmp_path):
    """Two out-of-tree packages, each with its own pyproject.toml declaring an entry point,
    installed into the fresh environment: ``savanna match`` plays the game with the agent."""
    home, python, site, env = venv
    game, agent = tmp_path / "race-toy", tmp_path / "highest-agent"
    shutil.copytree(ROOT / "tests" / "toy_game" / "race_toy", game / "race_toy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (game / "pyproject.toml").write_text(GAME_PLUGIN)
    agent.mkdir()
    (agent / "pyproject.toml").write_text(AGENT_PLUGIN)
    (agent / "highest_agent.py").write_text(AGENT)
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
        "--no-index", "--no-build-isolation", game, agent, cwd=home, env=env)
    out = run(python.parent / "savanna", "match", "race_toy", "highest:after=1", "random",
              "random", "--games", "3", "--workers", "1", "--out", home / "plugged", cwd=home,
              env=env)
    assert "highest:after=1" in out
    result = json.loads((home / "plugged" / "match.json").read_text())
    assert result["game"] == "race_toy" and result["games"] == 3


KUHN_PLUGIN = GAME_PLUGIN.replace("race-toy", "kuhn-toy").replace("race_toy", "kuhn_toy")


def guide_commands(name):
    """The commands the adding-a-game guide gives for checking a game kept elsewhere, for the
    game ``name``: ``pip install ... -e .`` then ``savanna check``."""
    guide = (ROOT / "docs" / "guides" / "adding-a-game.md").read_text()
    section = guide.split("## A game kept elsewhere")[1]
    block = next(b for b in section.split("```")[1::2] if "savanna check" in b)
    lines = [line.split() for line in block.splitlines()[1:] if line.strip()]
    assert lines[0][:2] == ["pip", "install"] and lines[0][-2:] == ["-e", "."], lines
    assert lines[1][:2] == ["savanna", "check"] and len(lines) == 2, lines
    return lines[0], ["savanna", "check", name]


def check(python, env, folder, name, editable=False):
    """``savanna check kuhn_toy`` in the fresh environment, with the package in ``folder``
    installed (and uninstalled after) as the guide says (offline: its dependencies are this
    environment's): the exit status and what it printed."""
    install, command = guide_commands(name)
    where = ["-e", folder] if editable else [folder]
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
        "--no-index", "--no-build-isolation", *where, cwd=folder, env=env)
    try:
        done = subprocess.run([python.parent / command[0], *command[1:]], cwd=folder,
                              env=env, capture_output=True, text=True, timeout=1200)
    finally:
        run(sys.executable, "-m", "pip", "--python", python, "uninstall", "--quiet", "-y",
            "kuhn-toy", cwd=folder.parent, env=env)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.slow
def test_savanna_check_passes_an_out_of_tree_game_and_names_the_clause_a_broken_one_fails(
        venv, tmp_path):
    """The Kuhn-like toy, a package of its own installed as the adding-a-game guide says,
    passes the conformance suite run from the wheel (no checkout, no PYTHONPATH); the same
    package with one rule changed in its kernels alone (the best card loses the showdown)
    fails, one line naming the kernels' disagreement with the reference."""
    home, python, site, env = venv
    game = tmp_path / "kuhn-toy"
    shutil.copytree(ROOT / "tests" / "toy_game" / "kuhn_toy", game / "kuhn_toy",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (game / "pyproject.toml").write_text(KUHN_PLUGIN)
    code, out = check(python, env, game, "kuhn_toy", editable=True)
    assert code == 0 and out.splitlines()[-1].startswith("0 failed, "), out[-3000:]
    kernels = game / "kuhn_toy" / "_kernels.py"
    rule = "r.cards[p] > r.cards[winner]"
    assert rule in kernels.read_text()
    kernels.write_text(kernels.read_text().replace(rule, "r.cards[p] < r.cards[winner]"))
    code, out = check(python, env, game, "kuhn_toy")
    failures = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert code == 1 and failures, out[-3000:]
    assert any("reference: kernels agree with the reference" in line for line in failures)
    assert out.splitlines()[-1].startswith(f"{len(failures)} failed, ")
