"""What a result needs to be traced back: the package version, the git commit of the source
when it is a git checkout, and a game's name, full options and rules version.

Every ``config.json``, ``match.json``, ``tournament.json`` and game record carries
``run_metadata(game)``. Git is optional: without git, or outside a checkout, the commit is None.
"""
import functools
import importlib.metadata
import inspect
import json
import subprocess
from pathlib import Path

from savanna.errors import clip

__all__ = ["game_options", "git_commit", "option_differences", "package_version",
           "run_metadata"]

SOURCE = Path(__file__).resolve().parents[1]  # the folder holding the savanna package


def package_version():
    """The installed package's version, or ``"unknown (not installed)"``."""
    try:
        return importlib.metadata.version("savanna-games")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


@functools.cache
def git_commit():
    """The commit of the source checkout (``+dirty`` after it when files differ from it), or
    None when git is missing, the source is not a checkout, or git fails in any way."""
    try:
        def git(*args):
            return subprocess.run(["git", "-C", str(SOURCE), *args], capture_output=True,
                                  text=True, timeout=10, check=True).stdout.strip()

        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + "+dirty" * bool(dirty) if commit else None


def game_options(game):
    """Every option of ``game`` (its constructor's keywords, defaults included) with the
    value it was built with: ``make_game(game.name, **game_options(game))`` rebuilds it.
    Every game of the registry keeps its options as attributes of the same names; an option
    another game does not keep is left out, and one JSON cannot hold is given as its repr."""
    return {name: _plain(getattr(game, name))
            for name in inspect.signature(type(game)).parameters if hasattr(game, name)}


def option_differences(theirs, ours):
    """Where two dicts of full game options differ, as ``key=theirs (here: ours)`` items
    joined by commas: what a message quotes, rather than two long option sets cut short."""
    keys = sorted(set(theirs) | set(ours), key=str)
    return ", ".join(f"{k}={clip(theirs.get(k), 30)} (here: {clip(ours.get(k), 30)})"
                     for k in keys if theirs.get(k) != ours.get(k))


def run_metadata(game):
    """The dict every result file carries: package version, git commit (or None), the game's
    name, full options and rules version."""
    return {"package_version": package_version(), "git_commit": git_commit(),
            "game": game.name, "options": game_options(game),
            "rules_version": game.rules_version}


def _plain(value):
    """An option value as JSON writes it (tuples become lists), or its repr."""
    value = list(value) if isinstance(value, tuple) else value
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)
    return value
