"""One-line error messages that quote bad input without echoing all of it."""

LIMIT = 80


def clip(value, limit=LIMIT):
    """``repr(value)`` on one line, cut to at most ``limit`` characters (marked ``...``)."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."
