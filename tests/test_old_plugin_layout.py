"""A plug-in written before the twin moved into the game's package (its ``twin.py`` in
``tests/<name>/``) is told, in one line per clause, which file to move where: ``savanna check``
and the architecture's module check."""
import os
import shutil
import subprocess
import sys

import pytest

from tests.test_new_game import ROOT, TOY, distribution


@pytest.fixture(scope="module")
def old_layout(tmp_path_factory):
    """The dice race toy as a plug-in with its twin in ``tests/race_toy/twin.py``."""
    folder = tmp_path_factory.mktemp("old")
    shutil.copytree(TOY / "race_toy", folder / "race_toy",
                    ignore=shutil.ignore_patterns("__pycache__", "twin.py"))
    (folder / "tests" / "race_toy").mkdir(parents=True)
    shutil.copy(TOY / "race_toy" / "twin.py", folder / "tests" / "race_toy" / "twin.py")
    distribution(folder, "race-toy", "[savanna.games]\nrace_toy = race_toy\n")
    return folder


def run(folder, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)])}
    return subprocess.run([sys.executable, *args], cwd=folder, env=env, capture_output=True,
                          text=True)


def test_savanna_check_names_the_twin_to_move(old_layout):
    done = run(old_layout, "-m", "savanna.conformance", "race_toy", "-k", "reference")
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAILED")]
    assert done.returncode == 1 and failed, done.stdout + done.stderr
    moved = old_layout / "tests" / "race_toy" / "twin.py"
    for line in failed:
        assert f"move {moved} into the game's package, as " \
               f"{old_layout / 'race_toy' / 'twin.py'}" in line, line


def test_the_architecture_check_says_to_move_twin_py(old_layout):
    done = run(old_layout, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir",
               str(ROOT), "-c", str(ROOT / "pyproject.toml"),
               str(ROOT / "tests" / "test_architecture.py"),
               "-k", "required_modules")
    assert done.returncode == 1, done.stdout
    assert "race_toy: missing ['twin']" in done.stdout and \
        "move twin.py into the game's package, beside reference.py" in done.stdout, done.stdout
