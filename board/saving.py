"""Where a finished game of ``savanna serve`` goes: a records file (``savanna.records``, as
``savanna match --records`` writes) in ``--save``, named as a player would name it."""
import logging
import re
import tempfile
from pathlib import Path

from savanna.agents.play.registry import is_import_path, split_spec
from savanna.files import stamp
from savanna.records import write_records

__all__ = ["keep", "played_by", "save"]

LOG = logging.getLogger(__name__)


def keep(record, game, folder):
    """Write ``record`` of ``game`` to ``folder``, or, if it cannot be written there (the folder
    became a file, a full disk), to a new folder of the system's temporary files, with one
    log line; its path, or None (logged) when neither can be written."""
    try:
        return str(save(record, game, folder))
    except (OSError, ValueError) as err:
        problem = f"{err.strerror if isinstance(err, OSError) else err}"
    try:
        fallback = tempfile.mkdtemp(prefix="savanna-played-")  # private, new
        saved = str(save(record, game, fallback))
        LOG.warning("savanna serve: cannot write the finished game to --save %s (%s); "
                    "written to %s instead", folder, problem, saved)
        return saved
    except (OSError, ValueError) as err:
        LOG.error("savanna serve: cannot write the finished game to --save %s (%s) nor to "
                  "a temporary folder (%s); it stays in memory", folder, problem, err)
        return None


def save(record, game, folder):
    """Write ``record`` to a new file in ``folder``, named by the game, the date, the players
    and who won (``zebres-20261206-004512-greedy-vs-human-human-wins.jsonl``); its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{game.name}-{stamp()}-{played_by(record.agents, record.returns)}"
    path, n = folder / f"{name}.jsonl", 1
    while path.exists():  # two games ended in the same second
        n += 1
        path = folder / f"{name}-{n}.jsonl"
    return write_records(path, [record])


def _short_name(label):
    """An agent's name without its settings, and for an import path only its class."""
    name, _ = split_spec(label)
    return name.rpartition(":")[2] if is_import_path(name) else name


def played_by(agents, returns):
    """The players (each agent's name, its settings left out) and the result as a file name's
    words: ``greedy-vs-random-random-wins``, ``human-vs-human-seat1-wins`` (one name twice: the
    seat), ``...-draw``, ``...-shared``.

    >>> played_by(["mcts:sims=50", "random"], [1.0, -1.0])
    'mcts-vs-random-mcts-wins'

    An agent of one's own is named by its class, not by the path of its file:

    >>> played_by(["/home/ada/bots/mine.py:FirstMove:depth=2", "random"], [1.0, -1.0])
    'FirstMove-vs-random-FirstMove-wins'
    """
    names = [re.sub(r"[^A-Za-z0-9.]+", "-", _short_name(a)).strip("-")[:32] or "agent"
             for a in agents]
    best = max(returns)
    winners = [p for p, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        result = "draw"
    elif len(winners) > 1:
        result = "shared"
    else:
        p = winners[0]
        result = f"{names[p] if names.count(names[p]) == 1 else f'seat{p}'}-wins"
    return f"{'-vs-'.join(names)}-{result}"
