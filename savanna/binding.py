"""How a compiled template is bound to one game: the contract, the generated code, its cache.

A template is a module of ``@njit(cache=True)`` loops (the batch drivers, the env step, the
searches) whose free names (``step_one``, ``A``, ...) are bound per game; the stubs below give
each kernel's signature, once. ``game.compiled(template, **extra)`` calls ``compiled`` here,
which writes the bound copy into ``cache_root()`` so that numba caches it. Why it is done this
way, and what the generated files and their cache key are: the architecture guide.
"""
import hashlib
import importlib.util
import inspect
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher

from savanna import compile_ahead, compile_log

__all__ = ["Kernels"]

_LOCK = threading.Lock()  # one thread loads a generated module; the others wait for it
_BOUND: dict = {}  # (template, game class, A, C, extra values) -> (kernels, module), this process
compile_log.install_notice()  # the first compilation of a process says so, in one line
compile_ahead.install()  # and another core compiles the kernels it will reach late


# ----- the free names a template may use (stubs: documentation, never called) ---------------
A: int = 0  # the game's number of distinct actions
C: int = 1  # the most chance outcomes of a node (at least 1)
RULE: int = 0  # a search's selection rule, for templates that ask for it (UCT, PUCT, Gumbel)


def reset_one(s: np.ndarray, i: int, base: np.ndarray, streams: np.ndarray) -> None:
    """s[i] = base[0] (the game's ``base_state()``), then draw any random setup from
    ``streams``."""


def current_player_one(s: np.ndarray, i: int) -> int:
    """0..P-1, CHANCE (-1) or TERMINAL (-2)."""
    return 0


def legal_actions_one(s: np.ndarray, i: int, out: np.ndarray) -> int:
    """Writes the legal actions, ascending, into int16 ``out``; returns how many."""
    return 0


def step_one(s: np.ndarray, i: int, action: int, rewards: np.ndarray) -> None:
    """Applies a legal decision and the forced moves that follow; overwrites float32
    ``rewards[P]``."""


def chance_probs_one(s: np.ndarray, i: int, probs: np.ndarray) -> None:
    """float64 ``probs[C]`` of each outcome (zeros allowed)."""


def apply_chance_one(s: np.ndarray, i: int, outcome: int) -> None:
    """Applies one chance outcome."""


def observe_one(s: np.ndarray, i: int, player: int, out: np.ndarray) -> None:
    """uint8 ``out[obs_size]``, from ``player``'s seat (player-relative)."""


def valid_one(s: np.ndarray, i: int, base: np.ndarray) -> int:
    """0 if state ``i`` is possible in the game whose options ``base`` (its ``base_state()``)
    holds, else a positive code: an index into the kernel module's ``STATE_ERRORS``. The other
    kernels may assume a valid state. Optional (test games only): ``always_valid``."""
    return 0


def scores_one(s: np.ndarray, i: int, out: np.ndarray) -> None:
    """int64 ``out[P]``: each player's score if the game ended now (optional; ``Game.scores``
    uses it)."""


def playout_one(s: np.ndarray, i: int, streams: np.ndarray, actions: np.ndarray,
                probs: np.ndarray, rewards: np.ndarray, total: np.ndarray) -> int:
    """Plays state ``i`` to the end at random, adds its rewards to ``total``; returns the
    plies (``savanna._drivers.playout_one``, bound for templates that ask for it)."""
    return 0


# ----- what a game binds --------------------------------------------------------------------
class Kernels(NamedTuple):
    """A game's scalar ``@njit`` kernels, each addressing state ``i`` of array ``s``; the
    stub of the same name in this module gives its signature and meaning."""

    reset_one: Callable
    current_player_one: Callable
    legal_actions_one: Callable
    step_one: Callable
    chance_probs_one: Callable
    apply_chance_one: Callable
    observe_one: Callable
    valid_one: Callable | None = None
    scores_one: Callable | None = None

    @classmethod
    def from_module(cls, *modules):
        """The kernels the kernel modules define under the field names (optional ones may be
        absent; a game's ``valid_one`` lives in its validity module), so that no game lists
        them by hand."""
        found = {f: getattr(m, f) for m in modules for f in cls._fields if hasattr(m, f)}
        missing = [f for f in cls._fields if f not in cls._field_defaults and f not in found]
        if missing:
            names = ", ".join(m.__name__ for m in modules)
            raise ValueError(f"{names} lack the kernels {', '.join(missing)}")
        one_signature(*modules)
        return cls(**found)


@njit(cache=True)
def always_valid(s, i, base):
    """The ``valid_one`` of a game that declares none (the protocol checks still run)."""
    return 0


def compiled(game: Any, template: ModuleType, extra: dict) -> ModuleType:
    """``template`` bound to ``game``'s kernels, ``A``, ``C`` and the ``extra`` names (see the
    module docstring); one module per template, game class, kernels and bound values."""
    values = tuple((name, type(v), v) for name, v in sorted(extra.items())) if extra else ()
    key = (template, type(game), game.num_actions, game.max_chance_outcomes, values)
    kernels, module = _BOUND.get(key, (None, None))
    if kernels is not game.kernels:  # an identity test: cheaper than hashing the kernels
        bindings = {name: f for name, f in game.kernels._asdict().items() if f is not None}
        bindings.setdefault("valid_one", always_valid)
        bindings.update(A=game.num_actions, C=max(1, game.max_chance_outcomes), **extra)
        module = specialize(template, bindings, game.name)
        compile_ahead.GAME_CLASSES[game.name] = f"{type(game).__module__}:{type(game).__qualname__}"
        _BOUND[key] = game.kernels, module
    return module


# ----- one compiled signature per kernel ----------------------------------------------------
def one_signature(*modules: ModuleType) -> None:
    """Make every jitted function defined in ``modules`` compile once for the calls from other
    jitted code: their integer arguments are passed as ``int64``.

    numba compiles a function once per distinct argument types of its calls, a literal
    constant being a type of its own: ``step_one(s, 0, a, r)`` (``Literal[int](0)``),
    ``step_one(s, i, a, r)`` with an ``int16`` action and with an ``int64`` one compile
    ``step_one``, and everything it calls, three times (about a third of a cold match's
    compile time). Widened at the call (numba casts each argument to the signature it
    resolves), they share one compilation; unsigned integers (bitboards) stay as they are."""
    for module in modules:
        for value in vars(module).values():
            if (isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
                    and "get_call_template" not in vars(value)):
                value.get_call_template = _widening(value.get_call_template)


def _widening(get_call_template):
    """``Dispatcher.get_call_template`` (how numba types a call from jitted code) with
    literal and signed integer argument types widened to ``int64``."""
    def widened(args, kws):
        return get_call_template(tuple(_widen(a) for a in args),
                                 {k: _widen(v) for k, v in kws.items()})
    return widened


def _widen(t):
    t = types.unliteral(t)
    return types.int64 if isinstance(t, types.Integer) and t.signed else t


# ----- the generated module -----------------------------------------------------------------
def cache_root() -> Path:
    """Where generated modules live: beside numba's cache when NUMBA_CACHE_DIR is set."""
    base = os.environ.get("NUMBA_CACHE_DIR") or Path.home() / ".cache" / "savanna"
    return Path(base) / "savanna_specialized"


def _binding_line(name, value):
    """The header line that binds ``name`` to ``value`` and the fingerprint of that value."""
    if isinstance(value, (int, float)):
        return f"{name} = {value!r}\n", repr(value)
    func = getattr(value, "py_func", value)
    module = getattr(func, "__module__", None)
    qualname = getattr(func, "__qualname__", "")
    if ("<locals>" in qualname or module is None
            or getattr(sys.modules.get(module), qualname, None) is not value):
        raise ValueError(f"{name}: {module}.{qualname} must be a module-level function (or an "
                         "int or a float) to be bound into a template")
    source = Path(inspect.getsourcefile(func)).read_bytes()
    # the module's name too: a generated module's source can stay the same while its name
    # (the hash of what it binds) changes; the function's name: two functions of one module
    fingerprint = hashlib.sha256(f"{module}\0{qualname}\0".encode() + source).hexdigest()
    return f"from {module} import {qualname} as {name}\n", fingerprint


def specialize(template: ModuleType, bindings: dict, tag: str) -> ModuleType:
    """The template module with ``bindings`` (name -> module-level function or number) set as
    its globals, loaded from a generated, cacheable file.

    ``tag`` names the file (e.g. the game); the hash of the bound values makes it unique."""
    header, digest = [], hashlib.sha256(Path(template.__file__).read_bytes())
    for name in sorted(bindings):
        line, fingerprint = _binding_line(name, bindings[name])
        header.append(line)
        digest.update(f"{name}={fingerprint};".encode())
    short = template.__name__.rsplit(".", 1)[-1]
    module_name = f"savanna_specialized_{short}_{tag}_{digest.hexdigest()[:16]}"
    compile_log.LABELS[module_name] = f"{short}[{tag}]"
    with _LOCK:
        if module_name not in sys.modules:
            _load(module_name, template, header)
        return sys.modules[module_name]


def _load(module_name, template, header):
    """Write (once, atomically) and import the generated module."""
    path = cache_root() / f"{module_name}.py"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        source = ("# Generated by savanna.binding from "
                  f"{template.__name__}; do not edit.\n" + "".join(header)
                  + Path(template.__file__).read_text())
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, path)  # atomic: concurrent processes never see half a file
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # numba's cache locates functions through it
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    one_signature(module)
