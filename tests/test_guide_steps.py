"""The steps of docs/guides/adding-a-game.md ("Step by step"), run as written in a fresh clone
of this checkout's committed HEAD: they add a game to Savanna and end with a green
``savanna check``; then the clone's suite passes with that game in the tree and the toy games of
tests/toy_game installed as plug-ins.

What differs from a user's machine is only where the dependencies come from: the clone's
``.venv`` is made beforehand, without pip, with a ``.pth`` file naming this environment's
site-packages (pip, setuptools and every dependency already installed here), and pip runs with
no index and no build isolation, so that the guide's ``make .venv/.installed`` installs the
clone, editable, offline. Its savanna then shadows this checkout's (the test checks it).
"""
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.fresh_venv import fresh_venv
from tests.test_new_game import TOYS, install_toy_games

ROOT = Path(__file__).resolve().parents[1]
GUIDE = Path("docs") / "guides" / "adding-a-game.md"
STEPS_CLASS = ":class: guide-steps"  # the option that marks a block of the guide's steps
STEPS = re.compile(rf"^```\{{code-block\}} bash\n{STEPS_CLASS}\n\n(.*?)^```$", re.M | re.S)
GAME = "my_game"  # the name the guide gives its game

pytestmark = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout")


def user_env(**extra):
    """This process's environment less what points into this checkout (its venv, the numba
    cache, an import path), plus ``extra``."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "NUMBA_CACHE_DIR")}
    return {**env, **extra}


def guide_steps(clone):
    """The guide's marked blocks, in order, as one bash script that stops at the first error."""
    blocks = STEPS.findall((clone / GUIDE).read_text())
    assert len(blocks) >= 3, "the guide's steps are code-block bash with :class: guide-steps"
    return "set -euo pipefail\n" + "".join(blocks)


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A clone of HEAD after the guide's steps, and what the steps printed."""
    clone = tmp_path_factory.mktemp("guide") / "savanna"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", ROOT, clone], check=True)
    fresh_venv(clone / ".venv")
    # pip reads a --no-* flag's variable as the flag's value: 0 turns build isolation off
    env = user_env(PIP_NO_INDEX="1", PIP_NO_BUILD_ISOLATION="0",
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run(["bash", "-c", guide_steps(clone)], cwd=clone, env=env,
                          capture_output=True, text=True)
    return clone, done


def test_the_guides_steps_add_a_game_that_passes_savanna_check(clone, tmp_path):
    """About half a minute: the clone, an offline install and the conformance suite."""
    clone, done = clone
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert re.search(r"^0 failed, [1-9]\d* passed", done.stdout, re.M), done.stdout[-2000:]
    installed = subprocess.run(
        [clone / ".venv" / "bin" / "python", "-c", "import savanna; "
         f"print(savanna.__file__, savanna.GAMES[{GAME!r}].package)"],
        cwd=tmp_path, env=user_env(), capture_output=True, text=True, check=True).stdout
    assert installed.split() == [str(clone / "savanna" / "__init__.py"), f"savanna.{GAME}"]


@pytest.mark.slow
def test_the_suite_passes_with_the_guides_game_and_the_toy_plug_ins(clone, tmp_path):
    """The clone's whole suite but its slow tests (``make suite``; 23 minutes on 2 cores
    shared with other work): every generic test runs on the guide's game and the plug-ins
    too. A failure shows the failing tests' names and the first one's traceback."""
    clone, steps = clone
    assert steps.returncode == 0, steps.stderr[-4000:]
    env = user_env(PYTHONPATH=str(install_toy_games(tmp_path)),
                   NUMBA_CACHE_DIR=str(clone / ".numba_cache"))
    done = subprocess.run(
        [clone / ".venv" / "bin" / "python", "-m", "pytest", "-n", "2", "-m", "not slow",
         "-p", "no:cacheprovider", "-rA"], cwd=clone, env=env, capture_output=True, text=True)
    failed = re.findall(r"^(?:FAILED|ERROR) .*", done.stdout, re.M)
    first = done.stdout.partition(" FAILURES ")[2][:6000]  # the first failure's traceback
    assert done.returncode == 0, "\n".join([*failed, first, done.stderr[-2000:]])
    passed = re.findall(r"^PASSED (\S+)", done.stdout, re.M)
    for name in (GAME, *TOYS):
        assert len([test for test in passed if name in test]) >= 100, name
