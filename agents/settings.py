"""Settings declared once: a dataclass field carries its default and a one-line doc, from which
the command line (``savanna_experiments.arguments``) generates the flag, its parser and its help."""
import copy
import dataclasses
import math
from dataclasses import field

import numpy as np

from savanna.errors import clip, is_int

__all__ = ["MAX_LAYERS", "MAX_WIDTH", "check_hidden", "check_types", "setting"]


def setting(default, doc):
    """A dataclass field with ``default`` (a dict or list is copied for every instance) and
    ``doc``, read back as ``dataclasses.fields(cls)[i].metadata["doc"]``."""
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: copy.deepcopy(default), metadata={"doc": doc})
    return field(default=default, metadata={"doc": doc})


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
        if f.type in TYPE_CHECKS and not TYPE_CHECKS[f.type](value):
            raise ValueError(f"{kind} setting {f.name} must be {TYPE_NAMES[f.type]}, "
                             f"got {clip(value)}")


def check_hidden(hidden):
    """The hidden layer widths as a tuple, within ``MAX_WIDTH`` and ``MAX_LAYERS``: checked
    before any network is built, so a bad checkpoint cannot ask for terabytes."""
    if (not isinstance(hidden, (list, tuple)) or not 1 <= len(hidden) <= MAX_LAYERS
            or not all(is_int(h) and 1 <= h <= MAX_WIDTH for h in hidden)):
        raise ValueError(f"hidden must be 1 to {MAX_LAYERS} layer widths, each an int in "
                         f"1..{MAX_WIDTH}, got {clip(hidden)}")
    return tuple(int(h) for h in hidden)
