"""Who sits at a table: the game and its options from a request (``parse_options``), and each
agent checked against the server's limits (``check_agent``) before any table is made."""
import inspect
import math
from dataclasses import dataclass
from pathlib import Path

from savanna.agents import describe, make_agent
from savanna.agents.play.az_agent import BASELINE
from savanna.agents.play.registry import agent_class, is_import_path, parse_spec, split_spec
from savanna.argument_types import parse_game_options
from savanna.board.cache import SharedCache, stamp_of
from savanna.board.limits import confined
from savanna.board.refusals import Refused
from savanna.errors import clip
from savanna.registry import make_game

__all__ = ["HUMAN", "AgentSpec", "check_agent", "parse_options"]

HUMAN = "human"


def parse_options(game, items, limits):
    """``{"key": "value"}`` or ``["key=value", ...]`` from a request as game ``game``'s
    options (``-o`` values: ``num_players=4``, ``berries=true``, ``course=K3,T8``); a
    Refused naming the game's options otherwise."""
    if isinstance(items, dict):
        items = [f"{k}={v}" for k, v in items.items()]
    if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
        raise Refused(f"options must be a list of 'key=value' texts, got {clip(items)}")
    if sum(map(len, items)) > limits.max_text:
        raise Refused(f"options are longer than {limits.max_text} characters")
    try:
        options = parse_game_options(game, [x.strip() for x in items if x.strip()])
        return options, make_game(game, **options)
    except ValueError as err:
        raise Refused(str(err)) from None


@dataclass(frozen=True)
class AgentSpec:
    """An agent checked against a server's limits: the ``spec`` a search worker builds it
    from (its files resolved to absolute paths inside the served folders), its ``label``
    (``describe``) and its search size (``sims``: None for an agent that does not search)."""

    spec: str
    label: str
    sims: int | None
    time_budget: float | None


MAX_AGENT_FILE_BYTES = 2**28  # a checkpoint a request names (the shipped ones hold ~2 MB)
_CHECKED = SharedCache(budget=256)  # specs checked (their checkpoints read), by their files


def check_agent(spec, limits):
    """The ``AgentSpec`` of ``spec`` (``az:baseline``, ``mcts:sims=200``,
    ``az:runs/x/best.pt``), or a Refused: an unknown agent or setting, a search larger
    than ``limits.max_sims`` simulated playouts or longer than ``limits.max_seconds``, a file
    outside ``limits.folders``. Reads checkpoints: call it off the event loop (each file is
    read once while it is unchanged, and concurrent requests share that read)."""
    if not isinstance(spec, str) or len(spec) > limits.max_text:
        raise Refused(f"an agent spec must be a text of at most {limits.max_text} "
                         f"characters, got {clip(spec)}")
    name, _ = split_spec(spec)
    if is_import_path(name) and not _offered(name, limits):  # a request imports nothing new
        raise Refused(f"agent {clip(name)} was not offered by this server (savanna serve "
                         "--agent MODULE:CLASS offers one)")
    resolved, files = _resolved(spec, limits)
    key = (resolved, tuple((f, *stamp_of(f.stat())) for f in files))
    for file, _, size in key[1]:  # refused unread
        if size > MAX_AGENT_FILE_BYTES:
            raise Refused(f"agent {clip(spec)}: {file.name} is {size:,} bytes; the board "
                             f"reads agent files of at most {MAX_AGENT_FILE_BYTES:,} bytes")
    checked, settings = _CHECKED.get(key, lambda: _built(resolved))
    _check_size(spec, settings, limits)
    return checked



def _offered(name, limits):
    """Whether the agent of import path ``name`` was offered (``savanna serve --agent``),
    by any spelling of it: a file by a relative path or by the absolute one records use."""
    def same(path):
        module, _, attr = path.rpartition(":")
        return f"{Path(module).resolve()}:{attr}" if module.endswith(".py") else path

    return same(name) in {same(split_spec(offered)[0]) for offered in limits.agents}


def _resolved(spec, limits):
    """``spec`` with every file it names resolved inside the served folders (a checkpoint
    setting, or a value that looks like a path), and those files."""
    try:
        name, positional, keyword = parse_spec(spec)
        params = list(inspect.signature(agent_class(name)).parameters)
    except ValueError as err:
        raise Refused(str(err)) from None
    files = []

    def served(key, value):
        shipped = key == "checkpoint" and value == BASELINE and name in ("az", "az-policy")
        if shipped or not (key == "checkpoint" or any(c in value for c in "/\\")
                           or value.endswith((".pt", ".json"))):
            return value
        files.append(confined(value, limits.folders, "file"))
        return str(files[-1])

    values = [served(params[i] if i < len(params) else None, v)
              for i, v in enumerate(positional)]
    values += [f"{k}={served(k, v)}" for k, v in keyword.items()]
    return name + (":" + ",".join(values) if values else ""), files


def _built(spec):
    try:
        agent = make_agent(spec)
    except ValueError as err:
        raise Refused(str(err)) from None
    settings = {k: getattr(agent, k, None) for k in ("sims", "time_budget", "rollouts",
                                                      "determinizations", "leaf_batch")}
    checked = AgentSpec(spec, describe(agent), settings["sims"], settings["time_budget"])
    return checked, settings


def _check_size(spec, settings, limits):
    """A Refused, with its arithmetic, for a search of more simulated playouts than
    ``limits.max_sims`` (simulations, each valued by ``rollouts`` random playouts; the
    determinizations share the simulations, each searching at least one), a leaf batch
    larger than that, or more seconds than ``limits.max_seconds``."""
    sims, budget = settings["sims"], settings["time_budget"]
    if isinstance(sims, int):
        factors = [(sims, "simulations")]
        trees = settings["determinizations"]
        if isinstance(trees, int) and trees > sims:
            factors = [(trees, "determinizations of one simulation at least")]
        rollouts = settings["rollouts"]
        if isinstance(rollouts, int) and rollouts > 1:
            factors.append((rollouts, "rollouts"))
        total = math.prod(n for n, _ in factors)
        if total > limits.max_sims:
            asks = " x ".join(f"{n:,} {what}" for n, what in factors)
            if len(factors) > 1:
                asks += f" = {total:,} simulated playouts"
            raise Refused(f"agent {clip(spec)} asks {asks}; this server allows at most "
                             f"{limits.max_sims:,} (savanna serve --max-sims)")
    batch = settings["leaf_batch"]
    if isinstance(batch, int) and batch > limits.max_sims:
        raise Refused(f"agent {clip(spec)} asks leaf_batch={batch:,}; this server allows "
                         f"at most {limits.max_sims:,} (savanna serve --max-sims)")
    if budget is not None and budget > limits.max_seconds:
        raise Refused(f"agent {clip(spec)} searches {budget:g} s a move; this server allows "
                         f"at most {limits.max_seconds:g} s (savanna serve --max-seconds)")
