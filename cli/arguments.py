"""The command line's argument helpers, shared by ``savanna.cli.main`` and every command: the
words people type (``savanna.argument_types``, offered here too), a records file and its game,
Ray's address, and the flags of a settings dataclass
(``savanna.agents.models.ppo_config.PPOConfig``, ``savanna.agents.models.az_config.AZConfig``)
generated from its fields, their defaults and their docs (``savanna.agents.settings.setting``), with
``--config FILE``.

Every mistake is a one-line error: an ``argparse.ArgumentTypeError`` from a ``type`` (argparse
names the flag) or a ``ValueError`` naming the setting and what is allowed.
"""
import argparse
import dataclasses
import typing
from pathlib import Path

from savanna.argument_types import (
    MAX_COUNT,
    HelpFormatter,
    Parser,
    UsageError,
    add_game_options,
    as_argument_type,
    check_player_count,
    count,
    index,
    number,
    option_names,
    option_value,
    parse_count,
    parse_game_options,
    parse_number,
    positive_int,
    seed,
    set_players,
)
from savanna.cli.run_folders import METADATA_KEY
from savanna.errors import clip
from savanna.files import parse_json, read_text
from savanna.number_parsing import parse_int

__all__ = ["MAX_COUNT", "HelpFormatter", "Parser", "UsageError", "add_config_flags",
           "add_game_options", "add_record_arguments", "address_help", "check_player_count",
           "count", "index", "number", "option_names", "option_value", "parse_count",
           "parse_game_options", "positive_int", "run_settings", "seed", "set_players"]

NOT_FLAGS = ("game", "game_options")  # the positional game and -o options
MAX_SETTINGS_BYTES = 2**20  # a --config file (a run's config.json is about 2 KB)


# ----- Ray ---------------------------------------------------------------------------------------
def address_help(flag):
    """The help of ``--address`` for a command that plays on Ray when given ``flag``."""
    # Ray's own order for ray.init(address=None): RAY_ADDRESS, then the latest cluster started
    # on this machine (/tmp/ray/ray_current_cluster), then a new local Ray.
    return (f"the Ray cluster (with {flag}): HOST:PORT of its head; auto: the one running on "
            "this machine; local: a new Ray for this command (default: RAY_ADDRESS, else the "
            "one running on this machine, else a new one)")


# ----- records files ----------------------------------------------------------------------------
def add_record_arguments(parser):
    """A records file and ``--game N``, the game of it (``replay``, ``review``)."""
    parser.add_argument("file", type=Path, help="a records file (JSON Lines, e.g. the "
                                                "records.jsonl of a match or tournament)")
    parser.add_argument("--game", type=index, default=0, metavar="N",
                        help="which game of the file, 0 for the first (default: 0)")


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
        return as_argument_type(lambda text: parse_count(text, f.name, most))
    if f.type is float:
        return as_argument_type(lambda text: parse_number(text, f.name))
    if f.type is tuple:
        item = type(default[0])
        return as_argument_type(lambda text: tuple(_item(x, item, f.name)
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
