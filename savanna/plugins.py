"""Plug-ins: the games and agents that packages declare as entry points, as Gymnasium's
``gymnasium.envs`` and pytest's ``pytest11``. A package's ``pyproject.toml`` says::

    [project.entry-points."savanna.games"]
    tictactoe = "tictactoe"                      # a package whose import registers the game

    [project.entry-points."savanna.agents"]
    minimax = "mypkg.agents:MinimaxAgent"        # savanna match tictactoe minimax random

Savanna's own games and agents are declared the same way. In a source checkout its own entry
points are read from the checkout's ``pyproject.toml`` (an installed copy's metadata may
describe another checkout); every other distribution's come from its installed metadata.
"""
import importlib
import importlib.metadata
import logging
import re
import tomllib
from pathlib import Path
from typing import NamedTuple

__all__ = ["GAMES_GROUP", "Plugin", "plugins", "load_games", "report"]

GAMES_GROUP = "savanna.games"  # the agents' group is savanna.agents.play.registry's
DISTRIBUTION = "savanna-games"
_VALUE = re.compile(r"[A-Za-z_][\w.]*(:[A-Za-z_][\w.]*)?")

log = logging.getLogger("savanna.plugins")


class Plugin(NamedTuple):
    """One entry point: its name, its value (``"module"`` or ``"module:attr"``) and the
    distribution that declares it."""

    name: str
    value: str
    distribution: str


def _checkout_pyproject():
    """The ``pyproject.toml`` of the source checkout this ``savanna`` runs from, or None when
    it is installed (then its folders sit inside the ``savanna`` package)."""
    here = Path(__file__).resolve().parent
    pyproject = here.parent / "pyproject.toml"
    return pyproject if not (here / "agents").is_dir() and pyproject.is_file() else None


def _normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def plugins(group):
    """The entry points of ``group``, Savanna's own first, each name once (a name declared
    twice is reported and the later one skipped)."""
    found = []
    pyproject = _checkout_pyproject()
    if pyproject is not None:
        project = tomllib.loads(pyproject.read_text())["project"]
        declared = project.get("entry-points", {}).get(group, {})
        found += [Plugin(name, value, project["name"]) for name, value in declared.items()]
    for entry in importlib.metadata.entry_points(group=group):
        dist = entry.dist.name if entry.dist is not None else "?"
        if pyproject is None or _normal(dist) != DISTRIBUTION:
            found.append(Plugin(entry.name, entry.value, dist))
    own = [p for p in found if _normal(p.distribution) == DISTRIBUTION]
    unique = {}
    for plugin in own + [p for p in found if p not in own]:
        if plugin.name in unique:
            if unique[plugin.name] != plugin:
                report(plugin, f"the name {plugin.name!r} is taken by "
                               f"{unique[plugin.name].distribution}")
            continue
        if not _VALUE.fullmatch(plugin.value.replace(" ", "")):
            report(plugin, "its value must be 'module' or 'module:attribute'")
            continue
        unique[plugin.name] = plugin
    return list(unique.values())


def report(plugin, problem):
    """Say in one line (on stderr, through logging) that ``plugin`` is skipped and why."""
    problem = " ".join(str(problem).split())
    log.warning("savanna: skipped plug-in %s = %r of %s: %s", plugin.name, plugin.value,
                plugin.distribution, problem)


def load_games():
    """Import every ``savanna.games`` plug-in (its import registers its games with
    ``savanna.registry.register_game``; a ``module:function`` value is called too). A plug-in
    that fails is reported in one line, and the others still load."""
    for plugin in plugins(GAMES_GROUP):
        module, _, attr = plugin.value.replace(" ", "").partition(":")
        try:
            loaded = importlib.import_module(module)
            if attr:
                getattr(loaded, attr)()
        except Exception as err:  # a plug-in's own bug must not stop the other games
            report(plugin, f"{type(err).__name__}: {err}")
