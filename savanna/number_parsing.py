"""Numbers typed by people (flags, agent specs, game options): ASCII digits only.

Python's ``int`` and ``float`` also read other scripts' digits (``int('５') == 5``), spaces
and underscores: a mistyped full-width digit would silently become a number. These parsers
accept exactly ``-?[0-9]+`` for an int and a plain decimal or exponent number for a float,
and refuse anything longer than ``MAX_DIGITS`` before converting it.
"""
import re

__all__ = ["MAX_DIGITS", "parse_float", "parse_int"]

MAX_DIGITS = 40  # longer than any count or seed: 10**40 is refused unread

_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def parse_int(text):
    """``text`` as an int if it is ``-?[0-9]+`` of at most ``MAX_DIGITS`` digits, else a
    ValueError."""
    if not isinstance(text, str) or len(text) > MAX_DIGITS + 1 or not _INT.fullmatch(text):
        raise ValueError(f"not an int of ASCII digits: {text!r}"[:120])
    return int(text)


def parse_float(text):
    """``text`` as a float if it is a plain ASCII number (``1.5``, ``-2e-3``, ``.5``), else a
    ValueError (no ``inf``, ``nan``, other scripts' digits or underscores)."""
    if not isinstance(text, str) or len(text) > 2 * MAX_DIGITS or not _FLOAT.fullmatch(text):
        raise ValueError(f"not a number of ASCII digits: {text!r}"[:120])
    return float(text)
