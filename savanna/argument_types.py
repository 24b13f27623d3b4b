"""The words people type on a command line or in a notebook's magic, read strictly: the parser
(one-line errors, help laid out as written), counts, seeds, indices and numbers in ASCII digits,
game options (``-o KEY=VALUE``) and player counts. Shared by the command line
(``savanna.cli``), the board's ``%savanna`` magic and the studies (which name a mistake by the
words their caller used: ``source``).

Every mistake is a one-line error: an ``argparse.ArgumentTypeError`` from a ``type`` (argparse
names the flag) or a ``ValueError`` naming what was wrong and what is allowed.
"""
import argparse
import inspect
import math
import re

from savanna.errors import clip
from savanna.number_parsing import parse_float, parse_int
from savanna.registry import GAMES, game_class

__all__ = ["MAX_COUNT", "MAX_SEED", "HelpFormatter", "Parser", "UsageError", "add_game_options",
           "as_argument_type", "check_player_count", "count", "index", "number", "option_names",
           "option_value", "parse_count", "parse_game_options", "parse_number", "positive_int",
           "seed", "set_players"]

MAX_SEED = 2**63 - 1     # seeds are stored as JSON numbers and given to torch


# ----- the parser ------------------------------------------------------------------------------
class UsageError(ValueError):
    """A command line argparse rejected (a bad number, a missing argument), with the
    (sub)command it belongs to."""

    def __init__(self, prog, message):
        super().__init__(message)
        self.prog = prog


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions laid out as written (they are docstrings), without reST's double
    backticks and literal-block colons."""

    def _format_text(self, text):
        return super()._format_text(text.replace("``", "").replace("::\n", ":\n"))

    def _expand_help(self, action):
        return super()._expand_help(action).replace("``", "")


class Parser(argparse.ArgumentParser):
    """``argparse`` with ``HelpFormatter`` and errors as one line (a ``UsageError``) instead
    of the usage text and an exit; the subcommands' parsers are of this class too. A parser
    made with ``setup`` adds those arguments when it is first used: the trainers' flags come
    from settings classes whose modules import torch, which the other commands do without."""

    def __init__(self, *args, formatter_class=HelpFormatter, setup=None, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)
        self._setup = setup

    def parse_known_args(self, args=None, namespace=None):
        if self._setup is not None:
            setup, self._setup = self._setup, None
            setup(self)
        return super().parse_known_args(args, namespace)

    def error(self, message):
        raise UsageError(self.prog, f"{message} (see {self.prog} --help)")


MAX_COUNT = 10**9  # the most of anything a flag counts (simulations, trials, plies...)


def count(most):
    """``type`` of a count argument with a maximum: an int in 1..``most``."""
    return lambda text: _int_in(text, 1, most)


def positive_int(text):
    """``type`` of the count arguments (simulations, trials, actors): an int in
    1..``MAX_COUNT``."""
    return _int_in(text, 1, MAX_COUNT)


def seed(text):
    """``type`` of the ``--seed`` arguments: an int in 0..``MAX_SEED``."""
    return _int_in(text, 0, MAX_SEED)


def index(text):
    """``type`` of 0-based positions (a game in a file, a ply, a seat): an int in
    0..``MAX_COUNT``."""
    return _int_in(text, 0, MAX_COUNT)


def number(text):
    """``type`` of real-valued arguments (``--seconds``): a finite number in ASCII digits."""
    return as_argument_type(lambda text: parse_number(text, "the value"))(text)


def _int_in(text, low, high):
    """An int in ``low..high`` written in ASCII digits (``savanna.number_parsing.parse_int``), or an
    ArgumentTypeError saying so."""
    try:
        value = parse_int(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected an int in {low}..{high}, got {clip(text)}")
    return value


_COUNT = re.compile(r"([0-9]*\.?[0-9]+(?:e[0-9]+)?)([kKmMgG]?)")


def parse_count(text, name, most=1e15):
    """A whole number in 0 .. ``most`` written as people write counts of steps or games, in
    ASCII digits: ``'3M'`` -> 3_000_000, ``'250k'`` -> 250_000, ``'1e6'`` -> 1_000_000,
    ``'4096'``."""
    match = _COUNT.fullmatch(str(text).strip(" "))
    if not match:
        raise ValueError(f"{name} must be a number like 3M, 250k or 1e6, got {clip(text)}")
    value = float(match[1]) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[match[2].lower()]
    if not value <= most:
        limit = most if isinstance(most, int) else f"{most:g}".replace("e+", "e")
        raise ValueError(f"{name} must be in 0 .. {limit}, got {clip(text)}")
    if value != int(value):
        raise ValueError(f"{name} must be a whole number, got {clip(text)}")
    return int(value)


def add_game_options(parser):
    """``-o KEY=VALUE`` (repeatable), read by ``parse_game_options``."""
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. -o board=president; a value with commas is "
                             "a list, e.g. -o course=K3,T8,T6,T1 (one item: course=K3,) "
                             "(repeatable)")


def parse_game_options(name, items):
    """``-o KEY=VALUE`` items as the keyword arguments of game ``name``; a ValueError naming
    an unknown option and the allowed ones. Values are read by ``option_value``."""
    allowed = option_names(name)
    options = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"game option must be KEY=VALUE, got {clip(item)}")
        if key not in allowed:
            raise ValueError(f"game {name!r} has no option {clip(key)}; options: "
                             f"{', '.join(allowed) or 'none'}")
        if key in options:
            raise ValueError(f"game option {key!r} is given twice")
        options[key] = option_value(value)
    return options


def option_value(text):
    """A game option's value from its text: an int, True/False (true, false), None (none), a
    word; with a comma, a tuple of such values (``K3,T8`` -> ``('K3', 'T8')``, ``K3,`` ->
    ``('K3',)``), so that ``-o course=K3,T8,T6,T1`` is a list of faces."""
    if "," in text:
        return tuple(option_value(item) for item in text.split(",") if item)
    try:
        return parse_int(text)
    except ValueError:
        return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def option_names(name):
    """The keyword options of game ``name`` (a ValueError naming the games if unknown)."""
    return list(inspect.signature(game_class(name)).parameters)


def check_player_count(name, n, source):
    """A ValueError naming the counts game ``name`` takes if ``n`` (given by ``source``) is
    none of them."""
    fewest, most = GAMES[name].players
    if not fewest <= n <= most:
        counts = f"{fewest}" if fewest == most else f"{fewest} to {most}"
        raise ValueError(f"{name} takes {counts} players, not {clip(n)} ({source})")


def set_players(name, options, n, source, required=False):
    """Set the option num_players to ``n`` (the number of seats ``source`` gives) if game
    ``name`` has it, or, when ``required``, let ``parse_game_options`` name the mistake; a
    ValueError if ``n`` is a count the game does not take or ``-o num_players`` says
    otherwise."""
    check_player_count(name, n, source)
    if "num_players" not in option_names(name):
        if required:
            parse_game_options(name, [f"num_players={n}"])
        return
    given = options.setdefault("num_players", n)
    if given != n:
        raise ValueError(f"{source} ({n}) and -o num_players={clip(given)} disagree; give "
                         "one of them")


def parse_number(text, name):
    try:
        value = parse_float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {clip(text)}")
    return value


def as_argument_type(parse):
    """``parse`` as an argparse ``type``: its ValueError's message, not 'invalid value'."""

    def argument(text):
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return argument
