"""Agent specs to agents: ``name[:value,...,key=value,...]``.

Examples: ``random``, ``greedy``, ``mcts:sims=1000,c=1.4``, ``ppo:runs/x/best.pt``. The names
are the entry points of the group ``savanna.agents`` (``savanna.plugins``: the built-in agents
and any installed plug-in's). An agent class of one's own is named by its import path in place
of the name, ``module.path:Class`` or ``path/to/file.py:Class``, its settings after a further
colon (``mypkg.agents:MyAgent:depth=3``): a name with a dot or a slash is an import path, so a
module at the top level is written as its file, ``my_agent.py:MyAgent`` (whose folder then goes
first on ``sys.path``, as ``python my_agent.py`` would put it). A value
without a key fills the constructor's parameters in order (``ppo:runs/x/best.pt`` is the
checkpoint path, ``mcts:200`` is ``sims=200``). Values are converted by the constructor's
declared types, numbers in ASCII digits only (annotation, else the type of the default: an int
default also takes a float, a ``None`` default takes ``none``, a number or a word). Every
mistake is a one-line ``ValueError`` naming what was wrong and what is allowed. Agent classes
are imported lazily, so a missing or unfinished agent only fails when asked for.
"""
import importlib
import importlib.util
import inspect
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any

from savanna.agents.play.base import IMPORT_PATHS, Agent
from savanna.errors import clip, one_line
from savanna.number_parsing import parse_float, parse_int
from savanna.plugins import plugins, report
from savanna.registry import load_entry
from savanna.seats import ORACLE_MARK

__all__ = ["AGENTS", "agent_class", "is_import_path", "make_agent", "parse_spec", "split_spec"]

AGENTS_GROUP = "savanna.agents"  # the entry-point group of agents
_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def _registered_agents():
    """name -> ``"module:Class"`` of every ``savanna.agents`` entry point; a plug-in whose
    name could be read as an import path, or that names no class, is reported and skipped."""
    found = {}
    for plugin in plugins(AGENTS_GROUP):
        if not _NAME.fullmatch(plugin.name):
            report(plugin, "an agent's name is lower-case letters, digits, - and _")
        elif ":" not in plugin.value:
            report(plugin, "an agent's value is 'module:Class'")
        else:
            found[plugin.name] = plugin.value.replace(" ", "")
    return found


AGENTS = _registered_agents()

_NONE = type(None)
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def agent_class(name: str) -> type:
    """The class registered under ``name``, or the class an import path names
    (``mypkg.agents:MyAgent``, ``path/to/file.py:MyAgent``); a ValueError listing the known
    names otherwise."""
    if name in AGENTS:
        return load_entry(AGENTS, name, "agent")
    if is_import_path(name):
        return _import_class(name)
    raise ValueError(f"unknown agent {clip(name)}; available: {', '.join(sorted(AGENTS))}, "
                     "or a class by its import path (mypkg.agents:MyAgent, "
                     "path/to/file.py:MyAgent)")


def is_import_path(name):
    """Whether the name part of a spec is an import path: a dot or a slash in its module."""
    return any(c in name.partition(":")[0] for c in "./\\")


def split_spec(spec):
    """``(name, settings)`` of a spec as text: ``'mcts:sims=9'`` -> ``('mcts', 'sims=9')``,
    ``'mypkg.agents:MyAgent:depth=3'`` -> ``('mypkg.agents:MyAgent', 'depth=3')``."""
    name, _, rest = spec.strip().partition(":")
    if is_import_path(name):
        attr, _, rest = rest.partition(":")
        name = f"{name}:{attr}"
    return name, rest


def _import_class(path):
    """The class of ``module.path:Class`` or ``path/to/file.py:Class``, imported (a file by
    its name, its folder first on ``sys.path``)."""
    where, _, attr = path.partition(":")
    if not attr.isidentifier():
        raise ValueError(f"an agent's import path is 'module.path:Class' or "
                         f"'path/to/file.py:Class', got {clip(path)}")
    try:
        module_file = where.endswith(".py") or "/" in where or "\\" in where
        if module_file:
            module = _import_file(Path(where))
        else:
            module = importlib.import_module(where)
        cls = getattr(module, attr)
    except Exception as err:  # the user's module failing to import: one line
        raise ValueError(f"agent {clip(path)} cannot be imported: {type(err).__name__}: "
                         f"{' '.join(str(err).split())}") from None
    if not isinstance(cls, type):
        raise ValueError(f"agent {clip(path)} is not a class")
    # named by this path in records (a file by its absolute path: a replay runs elsewhere)
    IMPORT_PATHS.setdefault(cls, f"{Path(where).resolve()}:{attr}" if module_file else path)
    return cls


def _import_file(path):
    """The module of the file ``path``, imported by its name with its folder put first on
    ``sys.path`` (as ``python path`` does), so that worker processes, which start with this
    path, import it too; a name another module already holds is a ValueError."""
    resolved = path.resolve()
    if not resolved.is_file() or resolved.suffix != ".py":
        raise ImportError(f"no file {path}" + ("" if resolved.suffix == ".py" else " (.py)"))
    name = resolved.stem
    held = sys.modules.get(name)
    if held is not None and Path(getattr(held, "__file__", "") or "").resolve() != resolved:
        raise ImportError(f"a module named {name!r} is imported already "
                          f"({getattr(held, '__file__', None) or 'built in'}): rename {path}")
    if str(resolved.parent) not in sys.path:
        sys.path.insert(0, str(resolved.parent))
    module = importlib.import_module(name)
    if Path(getattr(module, "__file__", "") or "").resolve() != resolved:
        raise ImportError(f"the module name {name!r} is taken by {module.__file__}: "
                          f"rename {path}")
    return module


def parse_spec(spec):
    """``'mcts:sims=1000,c=1.4'`` -> ``('mcts', [], {'sims': '1000', 'c': '1.4'})``, values
    as text."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be 'name[:key=value,...]', got {clip(spec)}")
    name, rest = split_spec(spec)
    positional, keyword = [], {}
    for item in rest.split(",") if rest else []:
        key, eq, value = item.partition("=")
        if not item or (eq and not key):
            raise ValueError(f"malformed agent spec {clip(spec)}: empty setting; "
                             "write name:key=value,key=value")
        if not eq:
            if keyword:
                raise ValueError(f"malformed agent spec {clip(spec)}: value {clip(item)} without "
                                 "a key after key=value settings")
            positional.append(item)
        elif key in keyword:
            raise ValueError(f"agent spec {clip(spec)} sets {clip(key)} twice")
        else:
            keyword[key] = value
    return name, positional, keyword


def make_agent(spec: str, **overrides: Any) -> Agent:
    """The agent for ``spec``; ``overrides`` (already typed, e.g. ``sims=2000`` from a command
    line flag) replace the spec's settings."""
    if isinstance(spec, str):  # as describe names an oracle agent; its class says it is one
        spec = spec.removesuffix(ORACLE_MARK)
    name, positional, keyword = parse_spec(spec)
    cls = agent_class(name)
    params = _settings_of(cls)
    allowed = ", ".join(params) or "none"
    if len(positional) > len(params):
        raise ValueError(f"agent {clip(name)} takes at most {len(params)} settings, got "
                         f"{len(positional)} values; settings: {allowed}")
    texts = dict(zip(params, positional))
    for key, value in keyword.items():
        if key not in params:
            raise ValueError(f"agent {clip(name)} has no setting {clip(key)}; settings: {allowed}")
        if key in texts:
            raise ValueError(f"agent spec {clip(spec)} sets {clip(key)} twice")
        texts[key] = value
    kwargs = {key: _convert(name, key, text, *params[key]) for key, text in texts.items()}
    for key, value in overrides.items():
        if key not in params:
            raise ValueError(f"agent {clip(name)} has no setting {clip(key)}; settings: {allowed}")
        kwargs[key] = value
    try:
        return cls(**kwargs)
    except (TypeError, ValueError, OSError) as err:  # OSError: a checkpoint that cannot be read
        raise ValueError(f"agent {clip(name)}: {err}") from None
    except Exception as err:  # a plug-in's own failure: one line naming it, not a traceback
        raise ValueError(f"agent {clip(name)} failed to start: {type(err).__name__}: "
                         f"{one_line(err)}") from None


def _settings_of(cls):
    """``{parameter: (annotation, default)}`` of the constructor's named parameters."""
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # unresolvable forward references: fall back to the defaults
        hints = {}
    return {p.name: (hints.get(p.name, inspect.Parameter.empty), p.default)
            for p in inspect.signature(cls).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _accepted_types(annotation, default):
    if annotation is not inspect.Parameter.empty:
        if typing.get_origin(annotation) in (typing.Union, types.UnionType):
            return list(typing.get_args(annotation))
        return [annotation]
    if default is None:
        return [_NONE, int, float, str]
    if isinstance(default, bool):
        return [bool]
    if isinstance(default, int):
        return [int, float]
    if default is inspect.Parameter.empty:
        return [int, float, str]
    return [type(default)]


def _parse_bool(text):
    if text.lower() in _TRUE:
        return True
    if text.lower() in _FALSE:
        return False
    raise ValueError(text)


_PARSERS = {int: parse_int, float: parse_float, str: str, bool: _parse_bool}


def _convert(agent, key, text, annotation, default):
    accepted = _accepted_types(annotation, default)
    if _NONE in accepted and text.lower() == "none":
        return None
    for kind in accepted:
        if kind in _PARSERS:
            try:
                return _PARSERS[kind](text)
            except ValueError:
                continue
    expected = " or ".join("none" if k is _NONE else getattr(k, "__name__", str(k))
                           for k in accepted)
    raise ValueError(f"agent {clip(agent)}: bad value {clip(text)} for {key} (expected {expected})")
