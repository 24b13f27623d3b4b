"""Settings declared once: a dataclass field carries its default, a one-line doc and, for a
count that sizes memory (games at once, batch sizes, replay windows), its largest allowed value,
from which the command line (``savanna.cli.arguments``) generates the flag, its parser
and its help."""
import copy
import dataclasses
import math
from dataclasses import field

import numpy as np

from savanna.argument_types import MAX_SEED
from savanna.errors import check_range, clip, is_int

__all__ = ["MAX_GAMES", "MAX_LAYERS", "MAX_SEED", "MAX_WIDTH", "MAX_WORKERS", "check_bounds",
           "check_hidden", "check_maxima", "check_positive", "check_types", "setting",
           "settings_from_dict"]

MAX_GAMES = 10_000_000   # games of one match (its list of batches is built at once)
MAX_WORKERS = 1024       # worker processes of one match


def setting(default, doc, most=None):
    """A dataclass field with ``default`` (a dict or list is copied for every instance),
    ``doc`` and, for an int, its maximum ``most``; read back as
    ``dataclasses.fields(cls)[i].metadata["doc"]`` and ``["most"]``."""
    metadata = {"doc": doc} if most is None else {"doc": doc, "most": most}
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: copy.deepcopy(default), metadata=metadata)
    return field(default=default, metadata=metadata)


def settings_from_dict(cls, data, kind):
    """The settings dataclass ``cls`` made from the dict ``data`` (a ``config.json``, a
    checkpoint's settings), or a one-line ValueError for anything but a dict of its fields;
    ``kind`` ("PPO") words the message."""
    if not isinstance(data, dict):
        raise ValueError(f"{kind} settings must be a dict, got {clip(data)}")
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(map(str, set(data) - names))
    if unknown:
        raise ValueError(f"unknown {kind} settings {clip(unknown)}; known: "
                         f"{', '.join(sorted(names))}")
    return cls(**data)


def check_maxima(config):
    """A one-line ValueError for the first setting of ``config`` above its declared maximum
    (checked before anything is allocated from it)."""
    for f in dataclasses.fields(config):
        most = f.metadata.get("most")
        if most is not None and getattr(config, f.name) > most:
            raise ValueError(f"{f.name} must be at most {most}, got "
                             f"{clip(getattr(config, f.name))}")


def check_positive(config, names):
    """A one-line ValueError for the first setting of ``config`` among ``names`` (int fields,
    their types checked by ``check_types``) that is below 1 (a count: games, epochs,
    threads)."""
    for name in names:
        value = getattr(config, name)
        if value < 1:
            raise ValueError(f"{name} must be a positive int, got {clip(value)}")


def check_bounds(config, bounds):
    """A one-line ValueError (``savanna.errors.check_range``'s) for the first setting of
    ``config`` outside its bounds: ``bounds`` maps names of number fields, their types
    checked by ``check_types``, to ``(low, high, above)`` as ``check_range`` takes them."""
    for name, (low, high, above) in bounds.items():
        value = getattr(config, name)
        if (value <= low if above else value < low) or (high is not None and value > high):
            check_range(name, value, low, high, above)


# ----- checks shared by every settings class (PPOConfig, AZConfig) and checkpoint contents ----
MAX_WIDTH, MAX_LAYERS = 4096, 8  # network size limits (a 4096-wide layer is 16M weights)


def is_real(value):
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, bool) and math.isfinite(value))


TYPE_CHECKS = {int: is_int, float: is_real, bool: lambda v: isinstance(v, bool),
               str: lambda v: isinstance(v, str), dict: lambda v: isinstance(v, dict),
               list: lambda v: isinstance(v, list)}
TYPE_NAMES = {int: "an int", float: "a finite number", bool: "True or False", str: "a string",
              dict: "a dict", list: "a list"}


def check_types(settings, kind):
    """Every field of the settings dataclass ``settings`` of the type it declares (an int is
    no bool, a float is finite), or a one-line ValueError naming it: run before any range
    check, so that a setting read back from a file is never a TypeError. ``kind`` ("PPO")
    words the message; fields of other declared types have checks of their own."""
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if type(value) is f.type and (f.type is not float or math.isfinite(value)):
            continue  # the usual case, as declared (a bool is no int: its type is bool)
        if f.type in TYPE_CHECKS and not TYPE_CHECKS[f.type](value):
            raise ValueError(f"{kind} setting {f.name} must be {TYPE_NAMES[f.type]}, "
                             f"got {clip(value)}")


def check_hidden(hidden):
    """The hidden layer widths as a tuple, within ``MAX_WIDTH`` and ``MAX_LAYERS``: checked
    before any network is built, so a bad checkpoint cannot ask for terabytes."""
    if (not isinstance(hidden, (list, tuple)) or not 1 <= len(hidden) <= MAX_LAYERS
            or not all((type(h) is int or is_int(h)) and 1 <= h <= MAX_WIDTH for h in hidden)):
        raise ValueError(f"hidden must be 1 to {MAX_LAYERS} layer widths, each an int in "
                         f"1..{MAX_WIDTH}, got {clip(hidden)}")
    return tuple(int(h) for h in hidden)
