"""One-line error messages that quote bad input without echoing all of it, and the argument
checks every game and agent shares."""
import math
import numbers

__all__ = ["check_int", "check_range", "clip"]

LIMIT = 80


def clip(value, limit=LIMIT):
    """``repr(value)`` on one line, cut to at most ``limit`` characters (marked ``...``)."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def clip_path(path, limit=LIMIT):
    """``path`` quoted for a message, cut to its last ``limit`` characters (its name matters
    most: ``'.../run/part-00001.npz'``)."""
    text = str(path)
    return repr(text) if len(text) <= limit else repr("..." + text[3 - limit:])


def is_int(value):
    """Whether ``value`` is an integer that is not a bool (``True`` is no seat or count)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_int(name, value, lo, hi, what="an int"):
    """``value`` as an int, or a one-line ValueError unless it is an integer (not a bool, not a
    float) in ``lo..hi``; ``what`` words the kind of int (``"a seat"``)."""
    if not ((type(value) is int or is_int(value)) and lo <= value <= hi):  # a plain int first
        raise ValueError(f"{name} must be {what} in {lo}..{hi}, got {clip(value)}")
    return int(value)


def check_range(name, value, low, high=None, above=False):
    """``value``, or a one-line ValueError unless it is a finite real number (not a bool, not
    NaN or infinite) ``>= low`` (``> low`` when ``above``) and ``<= high``; the message words the
    range as ``>= low``, ``> low`` or ``in [low, high]``, and says "a finite number" when
    ``value`` is none."""
    bounds = (f"{'>' if above else '>='} {low}" if high is None
              else f"in {'(' if above else '['}{low}, {high}]")
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not (isinstance(value, numbers.Integral) or math.isfinite(value)):
        raise ValueError(f"{name} must be a finite number {bounds}, got {clip(value)}")
    if not ((low < value if above else low <= value) and (high is None or value <= high)):
        raise ValueError(f"{name} must be {bounds}, got {clip(value)}")
    return value


def check_choice(name, value, choices):
    """``value``, or a one-line ValueError unless it is one of ``choices`` (strings or None),
    compared by type as well, so that ``["standard"]`` or ``b"lava"`` is no choice."""
    if not any(isinstance(value, type(c)) and value == c for c in choices):
        listed = ", ".join(str(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}, got {clip(value)}")
    return value


def check_at_least(name, value, low):
    """``value`` as an int, or a one-line ValueError unless it is an integer (not a bool, not a
    float) ``>= low``: a count with no upper bound (``sims``, ``rollouts``)."""
    if not (is_int(value) and value >= low):
        raise ValueError(f"{name} must be an int >= {low}, got {clip(value)}")
    return int(value)


def one_line(err, limit=200):
    """The message of exception ``err`` on one line, cut to ``limit`` characters: what a
    plug-in's failure shows of itself in a one-line error."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
