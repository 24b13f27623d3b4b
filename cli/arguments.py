"""The command line's argument helpers, shared by ``savanna.experiments.cli`` and every command:
the parser class (one-line errors, help laid out as written), typed counts and seeds, game
options (``-o KEY=VALUE``) and player counts, and the flags of a settings dataclass
(``savanna.agents.models.ppo_config.PPOConfig``, ``savanna.agents.models.az_config.AZConfig``)
generated from its fields, their defaults and their docs (``savanna.agents.settings.setting``), with
``--config FILE``.

Every mistake is a one-line error: an ``argparse.ArgumentTypeError`` from a ``type`` (argparse
names the flag) or a ``ValueError`` naming the setting and what is allowed.
"""
import argparse
import dataclasses
import inspect
import math
import re
import typing
from pathlib import Path

from savanna.agents.settings import MAX_SEED
from savanna.errors import clip
from savanna.experiments.runs import METADATA_KEY
from savanna.files import parse_json, read_text
from savanna.numbers import parse_float, parse_int
from savanna.registry import GAMES, game_class

__all__ = ["MAX_COUNT", "HelpFormatter", "Parser", "UsageError", "add_config_flags",
           "add_game_options", "address_help", "count", "index", "number", "option_names",
           "option_value", "parse_count", "parse_game_options", "positive_int", "run_settings",
           "seed", "set_players"]

NOT_FLAGS = ("game", "game_options")  # the positional game and -o options
MAX_SETTINGS_BYTES = 2**20  # a --config file (a run's config.json is about 2 KB)


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


def address_help(flag):
    """The help of ``--address`` for a command that plays on Ray when given ``flag``."""
    # Ray's own order for ray.init(address=None): RAY_ADDRESS, then the latest cluster started
    # on this machine (/tmp/ray/ray_current_cluster), then a new local Ray.
    return (f"the Ray cluster (with {flag}): HOST:PORT of its head; auto: the one running on "
            "this machine; local: a new Ray for this command (default: RAY_ADDRESS, else the "
            "one running on this machine, else a new one)")


# ----- counts and seeds -------------------------------------------------------------------------
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
    return _argument_type(lambda text: _number(text, "the value"))(text)


def _int_in(text, low, high):
    """An int in ``low..high`` written in ASCII digits (``savanna.numbers.parse_int``), or an
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


# ----- game options -----------------------------------------------------------------------------
def add_record_arguments(parser):
    """A records file and ``--game N``, the game of it (``replay``, ``review``)."""
    parser.add_argument("file", type=Path, help="a records file (JSON Lines, e.g. the "
                                                "records.jsonl of a match or tournament)")
    parser.add_argument("--game", type=index, default=0, metavar="N",
                        help="which game of the file, 0 for the first (default: 0)")


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


# ----- flags generated from a settings dataclass ------------------------------------------------
def add_config_flags(parser, cls, aliases=None):
    """One flag per field of the dataclass ``cls`` but ``NOT_FLAGS`` (``max_considered`` ->
    ``--max-considered``; ``aliases`` maps a field to older spellings), typed by the field's
    type, its help the field's doc and default; and ``--config FILE``. An unset flag is None:
    ``run_settings`` keeps the file's value or the default."""
    group = parser.add_argument_group(
        "settings", f"Every setting of {cls.__name__}: a flag overrides --config FILE, which "
                    f"overrides the default.")
    group.add_argument("--config", metavar="FILE", type=Path,
                       help="a JSON file of settings, e.g. the config.json of an earlier run")
    for f in dataclasses.fields(cls):
        if f.name in NOT_FLAGS:
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        names = [_flag(f.name), *(aliases or {}).get(f.name, ())]
        most = f", at most {f.metadata['most']}" if "most" in f.metadata else ""
        text = f"{f.metadata['doc']} (default: {_shown(default)}{most})".replace("%", "%%")
        if f.type is bool:
            group.add_argument(*names, dest=f.name, action=argparse.BooleanOptionalAction,
                               help=text)
        else:
            group.add_argument(*names, dest=f.name, type=_flag_type(f, default), help=text,
                               metavar=_METAVARS.get(f.type, "TEXT"))


_METAVARS = {int: "N", float: "X", tuple: "A,B"}


def _shown(value):
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return value


def _flag_type(f, default):
    """The argparse ``type`` of field ``f``: counts (``3M``) for ints, finite numbers for
    floats, comma lists for tuples, text for strings (the dataclass parses what it reads)."""
    if f.type is int:
        most = f.metadata.get("most", 1e15)
        return _argument_type(lambda text: parse_count(text, f.name, most))
    if f.type is float:
        return _argument_type(lambda text: _number(text, f.name))
    if f.type is tuple:
        item = type(default[0])
        return _argument_type(lambda text: tuple(_item(x, item, f.name)
                                                 for x in text.split(",")))
    if f.type is str or str in typing.get_args(f.type):
        return str
    raise TypeError(f"no flag for the setting {f.name} of type {f.type}")


def _item(text, kind, name):
    if kind is int:
        try:
            return parse_int(text)
        except ValueError:
            raise ValueError(f"{name} must be comma-separated ints, got {clip(text)}") from None
    return text


def _number(text, name):
    try:
        value = parse_float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {clip(text)}")
    return value


def _argument_type(parse):
    """``parse`` as an argparse ``type``: its ValueError's message, not 'invalid value'."""

    def argument(text):
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return argument


def run_settings(cls, args, resumable):
    """The settings of a run from the parsed arguments, as a dict for ``cls.from_dict``:
    those of ``--config FILE``, then the game, its ``-o`` options (merged over the file's) and
    every flag given. With ``--resume`` (the run keeps its own settings) only the flags of
    ``resumable`` may be given, and only they are returned."""
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(cls)
             if getattr(args, f.name, None) is not None}
    if args.resume:
        fixed = sorted(set(given) - set(resumable)) + ["config"] * bool(args.config)
        fixed = [_flag(n) for n in fixed] + ["-o"] * bool(args.option)
        if fixed:
            allowed = (f"only {', '.join(map(_flag, resumable))} may change" if resumable
                       else "none may be given")
            raise ValueError(f"--resume continues a run with its own settings; {allowed}, got "
                             f"{', '.join(fixed)}")
        return given
    settings = read_settings(args.config) if args.config else {}
    game = given.pop("game", None) or settings.get("game")
    if not game:
        raise ValueError(f"name the game to train on (e.g. {args.prog} zebres), give "
                         f"--config FILE or --resume RUN")
    options = settings.get("game_options") or {}
    if not isinstance(options, dict):
        raise ValueError(f"game_options in {clip(str(args.config))} must be a dict, got "
                         f"{clip(options)}")
    options = {**options, **parse_game_options(game, args.option)}
    return {**settings, **given, "game": game, "game_options": options}


def _flag(name):
    return "a game" if name == "game" else f"--{name.replace('_', '-')}"


def read_settings(path):
    """The dict of a JSON settings file (a ValueError naming the file otherwise), without the
    ``metadata`` a run's ``config.json`` also holds."""
    data = parse_json(read_text(path, "settings file", MAX_SETTINGS_BYTES),
                      f"settings file {clip(str(path))}")
    if not isinstance(data, dict):
        raise ValueError(f"{clip(str(path))} must hold a JSON object of settings, got "
                         f"{clip(data)}")
    data.pop(METADATA_KEY, None)
    return data
