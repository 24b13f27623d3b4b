"""Why the board refuses a request: one domain error, ``Refused``, whose ``kind`` says what went
wrong (bad input, a missing game, a key that opens nothing, a stale move, a full server, a
search out of time). The board's modules raise it without knowing about HTTP; the web side
(``board.server``) maps each kind to a status (``STATUS``).

>>> Refused("stale move", "conflict").kind
'conflict'
"""
from savanna.errors import check_int

__all__ = ["KINDS", "Refused", "checked_int"]

KINDS = ("invalid", "forbidden", "missing", "conflict", "too_large", "busy", "failed",
         "unavailable")


class Refused(ValueError):
    """A request the board refuses, with a one-line message and its ``kind``: ``invalid``
    (bad input), ``forbidden`` (a key that opens nothing here), ``missing`` (no such game, job
    or file), ``conflict`` (a stale move, or one not allowed now), ``too_large``, ``busy``
    (too many at once: try later), ``failed`` (a bug in a search), ``unavailable`` (a search
    out of time, a worker gone)."""

    def __init__(self, message, kind="invalid"):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        super().__init__(message)
        self.kind = kind


def checked_int(name, value, low, high):
    """``value`` as an int in ``low..high``, else a Refused naming ``name``."""
    try:
        return check_int(name, value, low, high)
    except ValueError as err:
        raise Refused(str(err)) from None
