"""Settings declared once: a dataclass field carries its default, a one-line doc and, for a
count that sizes memory (games at once, batch sizes, replay windows), its largest allowed value,
from which the command line (``savanna_experiments.arguments``) generates the flag, its parser
and its help."""
import copy
import dataclasses
from dataclasses import field

from savanna.errors import clip

__all__ = ["MAX_GAMES", "MAX_SEED", "MAX_WORKERS", "check_maxima", "setting"]

MAX_GAMES = 10_000_000   # games of one match (its list of batches is built at once)
MAX_WORKERS = 1024       # worker processes of one match
MAX_SEED = 2**63 - 1     # seeds are stored as JSON numbers and given to torch


def setting(default, doc, most=None):
    """A dataclass field with ``default`` (a dict or list is copied for every instance),
    ``doc`` and, for an int, its maximum ``most``; read back as
    ``dataclasses.fields(cls)[i].metadata["doc"]`` and ``["most"]``."""
    metadata = {"doc": doc} if most is None else {"doc": doc, "most": most}
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: copy.deepcopy(default), metadata=metadata)
    return field(default=default, metadata=metadata)


def check_maxima(config):
    """A one-line ValueError for the first setting of ``config`` above its declared maximum
    (checked before anything is allocated from it)."""
    for f in dataclasses.fields(config):
        most = f.metadata.get("most")
        if most is not None and getattr(config, f.name) > most:
            raise ValueError(f"{f.name} must be at most {most}, got "
                             f"{clip(getattr(config, f.name))}")
