"""What a ``savanna serve`` allows: its ``Limits`` (search sizes and times, games held, text
sizes, the folders it reads and where it saves) and ``confined``, the one gate through which a
file a request names is found inside those folders."""
from dataclasses import dataclass
from pathlib import Path

from savanna.board.refusals import Refused
from savanna.errors import clip

__all__ = ["Limits", "confined"]


@dataclass(frozen=True)
class Limits:
    """What one request may ask of the server: searches are bounded in simulations and time,
    games and texts in size, the games held in number, memory and idle time. ``folders``: the
    only folders files are read from (records, ladders, tournaments, checkpoints); ``save``:
    where finished games are written."""

    max_sims: int = 2000         # the most simulations an agent or an analysis may search
    max_seconds: float = 20.0    # the longest one agent move or one analysis may take
    max_tables: int = 1000       # games kept in memory (then the oldest finished one goes)
    max_memory: int = 2**31      # bytes the games may hold (networks live in the workers)
    idle_minutes: float = 60.0   # a game nobody asked about for this long is freed
    max_text: int = 4096         # the longest position, spec or option text accepted
    folders: tuple = ()
    save: Path | None = None
    agents: tuple = ()           # the import paths offered at start (serve --agent)


def confined(text, folders, what):
    """The file ``text`` names, resolved, if it lies inside one of ``folders`` (relative paths
    are taken in each folder in turn, none through a hidden folder); otherwise one Refused
    (missing) whether it is missing or not allowed, so that no answer tells which files exist."""
    if not folders:
        raise Refused(f"{what} must lie in a folder given to savanna serve, and none was "
                         "given (savanna serve FOLDER ...)")
    missing = Refused(f"no {what} {clip(text)} in the folders this server serves", "missing")
    if "\0" in text:  # no file's name holds one (the OS refuses it)
        raise missing
    path = Path(text)
    candidates = [path] if path.is_absolute() else [Path(f) / path for f in folders]
    for candidate in candidates:
        try:  # a name too long, a loop of links: no such file
            found = candidate.resolve()
            for folder in map(Path, folders):
                root = folder.resolve()
                if found.is_relative_to(root) and found.is_file() and not any(
                        part.startswith(".") for part in found.relative_to(root).parts):
                    return found
        except OSError:
            continue
    raise missing
