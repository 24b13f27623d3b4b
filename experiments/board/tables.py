"""The games ``savanna serve`` plays: seats (humans and agents), moves, chance, undo, what each
seat may see, and the record written when a game ends. No HTTP here (``board.server`` is the
web side), so that the rules of a table are tested without a server.

>>> from savanna.experiments.board.tables import Limits, Table
>>> table = Table.new("zebres", {}, ["human", "random"], seed=0, limits=Limits())
>>> view = table.view(0)                 # the board as seat 0 sees it, and its legal moves
>>> table.move(0, view["moves"][0]["action"], view["version"])
>>> table.play_agents()                  # the agents' moves and the chance outcomes after it
"""
import hashlib
import hmac
import inspect
import json
import logging
import math
import re
import secrets
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from savanna.agents import describe, make_agent
from savanna.agents.play.az_agent import BASELINE
from savanna.agents.play.registry import agent_class, is_import_path, parse_spec, split_spec
from savanna.errors import check_int, clip
from savanna.experiments.arguments import option_names, parse_game_options
from savanna.experiments.board import workers
from savanna.experiments.board.cache import SharedCache, stamp_of
from savanna.files import stamp
from savanna.game import CHANCE, TERMINAL
from savanna.records import make_record, write_records
from savanna.registry import make_game
from savanna.seats import outcome_owner

__all__ = ["AgentSpec", "BadRequest", "Limits", "Table", "check_agent", "outcome_name",
           "parse_options", "view_picture"]

HUMAN = "human"
MAX_DELAY = 10  # the slowest pace of the agents' moves, in seconds
LOG = logging.getLogger(__name__)


class BadRequest(ValueError):
    """A request the server refuses with a 4xx and this one-line message (``status``: 400 for
    bad input, 404 for what does not exist, 409 for a move that is stale or not allowed now)."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Limits:
    """What one request may ask of the server: searches are bounded in simulations and time,
    games and texts in size, the games held in number, memory and idle time. ``folders``: the
    only folders files are read from (records, ladders, tournaments, checkpoints); ``save``:
    where finished games are written."""

    max_sims: int = 2000         # the most simulations an agent or an analysis may search
    max_seconds: float = 20.0    # the longest one agent move or one analysis may take
    max_tables: int = 1000       # games kept in memory (then the oldest finished one goes)
    max_memory: int = 2**31      # bytes the games may hold (networks live in the workers)
    idle_minutes: float = 60.0   # a game nobody asked about for this long is freed
    max_text: int = 4096         # the longest position, spec or option text accepted
    folders: tuple = ()
    save: Path | None = None
    agents: tuple = ()           # the import paths offered at start (serve --agent)


def parse_options(game, items, limits):
    """``{"key": "value"}`` or ``["key=value", ...]`` from a request as game ``game``'s
    options (``-o`` values: ``num_players=4``, ``berries=true``, ``course=K3,T8``); a
    BadRequest naming the game's options otherwise."""
    if isinstance(items, dict):
        items = [f"{k}={v}" for k, v in items.items()]
    if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
        raise BadRequest(f"options must be a list of 'key=value' texts, got {clip(items)}")
    if sum(map(len, items)) > limits.max_text:
        raise BadRequest(f"options are longer than {limits.max_text} characters")
    try:
        options = parse_game_options(game, [x.strip() for x in items if x.strip()])
        return options, make_game(game, **options)
    except ValueError as err:
        raise BadRequest(str(err)) from None


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
    ``az:runs/x/best.pt``), or a BadRequest: an unknown agent or setting, a search larger
    than ``limits.max_sims`` simulated playouts or longer than ``limits.max_seconds``, a file
    outside ``limits.folders``. Reads checkpoints: call it off the event loop (each file is
    read once while it is unchanged, and concurrent requests share that read)."""
    if not isinstance(spec, str) or len(spec) > limits.max_text:
        raise BadRequest(f"an agent spec must be a text of at most {limits.max_text} "
                         f"characters, got {clip(spec)}")
    name, _ = split_spec(spec)
    if is_import_path(name) and not _offered(name, limits):  # a request imports nothing new
        raise BadRequest(f"agent {clip(name)} was not offered by this server (savanna serve "
                         "--agent MODULE:CLASS offers one)")
    resolved, files = _resolved(spec, limits)
    key = (resolved, tuple((f, *stamp_of(f.stat())) for f in files))
    for file, _, size in key[1]:  # refused unread
        if size > MAX_AGENT_FILE_BYTES:
            raise BadRequest(f"agent {clip(spec)}: {file.name} is {size:,} bytes; the board "
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
        raise BadRequest(str(err)) from None
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
        raise BadRequest(str(err)) from None
    settings = {k: getattr(agent, k, None) for k in ("sims", "time_budget", "rollouts",
                                                      "determinizations", "leaf_batch")}
    checked = AgentSpec(spec, describe(agent), settings["sims"], settings["time_budget"])
    return checked, settings


def _check_size(spec, settings, limits):
    """A BadRequest, with its arithmetic, for a search of more simulated playouts than
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
            raise BadRequest(f"agent {clip(spec)} asks {asks}; this server allows at most "
                             f"{limits.max_sims:,} (savanna serve --max-sims)")
    batch = settings["leaf_batch"]
    if isinstance(batch, int) and batch > limits.max_sims:
        raise BadRequest(f"agent {clip(spec)} asks leaf_batch={batch:,}; this server allows "
                         f"at most {limits.max_sims:,} (savanna serve --max-sims)")
    if budget is not None and budget > limits.max_seconds:
        raise BadRequest(f"agent {clip(spec)} searches {budget:g} s a move; this server allows "
                         f"at most {limits.max_seconds:g} s (savanna serve --max-seconds)")


def confined(text, folders, what):
    """The file ``text`` names, resolved, if it lies inside one of ``folders`` (relative paths
    are taken in each folder in turn, none through a hidden folder); otherwise one BadRequest
    (404) whether it is missing or not allowed, so that no answer tells which files exist."""
    if not folders:
        raise BadRequest(f"{what} must lie in a folder given to savanna serve, and none was "
                         "given (savanna serve FOLDER ...)")
    missing = BadRequest(f"no {what} {clip(text)} in the folders this server serves", 404)
    if "\0" in text:  # no file's name holds one (the OS refuses it)
        raise missing
    path = Path(text)
    candidates = [path] if path.is_absolute() else [Path(f) / path for f in folders]
    for candidate in candidates:
        try:  # a name too long, a loop of links: no such file
            found = candidate.resolve()
            for folder in map(Path, folders):
                root = folder.resolve()
                if found.is_relative_to(root) and found.is_file() and not any(
                        part.startswith(".") for part in found.relative_to(root).parts):
                    return found
        except OSError:
            continue
    raise missing


def outcome_name(game, outcome):
    """A chance outcome as the game names it (a tile value, a die face), else its number."""
    name = getattr(game, "outcome_to_string", None)
    return name(outcome) if name is not None else str(outcome)


def view_picture(game, row, seat):
    """The SVG of ``row`` as ``seat`` may see it (None: everything)."""
    return game.render_svg(row, None if game.perfect_information else seat)


class Table:
    """One game being played: its seats (None for a human, else an ``AgentSpec``), states,
    events and the points where undo returns. Every method checks its request and raises BadRequest;
    the lock keeps a move and an agent's search from interleaving on one table."""

    def __init__(self, game, options, seats, labels, seed, limits):
        self.id = secrets.token_urlsafe(16)  # 128 bits: who knows it was told it
        self.keys = {p: secrets.token_urlsafe(16) for p, agent in enumerate(seats)
                     if agent is None}   # a human seat's key: whoever holds it plays there
        self.control = secrets.token_urlsafe(16)  # asks the agents to move; no seat
        self.game, self.options, self.seats, self.labels = game, options, seats, labels
        self.seed, self.limits = seed, limits  # the seed is secret until the end
        self.state = game.init(1, np.random.default_rng(seed))
        self.start = self.state.copy()
        self.events = []       # (who, value): a seat and its action, or CHANCE and the outcome
        self.log = []          # one line per event, what every seat may see
        self.returns = np.zeros(game.num_players)
        self.undo_points = []  # (seat, events, state, returns, log) before each human move
        self.takebacks = []    # {"seat", "at", "undone"}: the record's moves taken back
        self.saved = None      # the record's path once the game has ended
        self.lock = threading.Lock()
        self.paused = False    # the agents wait (a click on Pause, or a search that failed)
        self.delay = 0.0       # seconds between two agents' moves (to watch them)
        self.notice = None     # why the agents wait, when a search failed
        self.revision = 0      # changes so far (moves, undos, pace): a page keeps the latest
        self._settle()

    @classmethod
    def new(cls, game_name, options, seats, seed, limits, paused=False, delay=0.0):
        """A table from a request's fields: ``options`` (see ``parse_options``), ``seats``
        (``"human"`` or an agent spec per seat; their number sets ``num_players`` when the
        options leave it out), ``seed`` (an int, or None for one from the operating system),
        and its pace (see ``set_pace``)."""
        if not isinstance(game_name, str):
            raise BadRequest(f"game must be a name, got {clip(game_name)}")
        if not isinstance(seats, list) or not 1 <= len(seats) <= 8:
            raise BadRequest(f"seats must be a list of 'human' or agent specs, one per seat, "
                             f"got {clip(seats)}")
        try:
            allowed = option_names(game_name)  # an unknown game is named here
        except ValueError as err:
            raise BadRequest(str(err)) from None
        items = options if options is not None else []
        if isinstance(items, dict):
            items = [f"{k}={v}" for k, v in items.items()]
        if isinstance(items, list) and "num_players" in allowed and not any(
                str(x).partition("=")[0].strip() == "num_players" for x in items):
            items = [*items, f"num_players={len(seats)}"]
        options, game = parse_options(game_name, items, limits)
        if len(seats) != game.num_players:
            raise BadRequest(f"{game_name} with these options has {game.num_players} seats, "
                             f"got {len(seats)}")
        agents = [None if s == HUMAN else check_agent(s, limits) for s in seats]
        labels = [HUMAN if a is None else a.label for a in agents]
        if seed is None:
            seed = secrets.randbits(63)
        seed = _checked_int("seed", seed, 0, 2**63 - 1)
        table = cls(game, options, agents, labels, seed, limits)
        table.set_pace(paused, delay)
        return table

    # ----- what a seat sees ---------------------------------------------------------------
    @property
    def to_move(self):
        return int(self.game.current_player(self.state)[0])

    @property
    def over(self):
        return self.to_move == TERMINAL

    def seat_of(self, key):
        """The seat whose key is ``key``; None for no key (a spectator) and for the control
        key (which opens no seat); a 403 for a key that is not this table's."""
        if key is None:
            return None
        for seat, secret in self.keys.items():
            if hmac.compare_digest(secret.encode(), key.encode()):
                return seat
        if hmac.compare_digest(self.control.encode(), key.encode()):
            return None
        raise BadRequest("this X-Seat-Key opens no seat of this game: use the key the game's "
                         "creation answered, or an invitation link", 403)

    def view(self, seat):
        """What ``seat`` (a seat whose key was shown, or None: a spectator) may see: the
        picture, whose turn, the public log, and the legal moves when ``seat`` is a human to
        move. The secrets (the other seats' cards, the seed) stay hidden until the game ends;
        a spectator sees only what is public."""
        hidden = not self.game.perfect_information and not self.over
        row = self.state
        moves = []
        if seat is not None and seat == self.to_move and self.seats[seat] is None:
            spots = self.game.move_spots(row)
            moves = [{"action": a, "name": self.game.action_to_string(row[0], a),
                      "spot": spots.get(a)} for a in self.game.legal_actions(row[0])]
        view = {"id": self.id, "game": self.game.name, "title": repr(self.game),
                "options": {k: _jsonable(v) for k, v in self.options.items()},
                "seats": self.labels, "seat": seat, "seed": self.seed if self.over else None,
                "version": len(self.events), "revision": self.revision,
                "to_move": self.to_move, "over": self.over,
                "agent_to_move": self.agent_to_move, "moves": moves,
                "log": [self._line(entry, seat) for entry in self.log],
                "paused": self.paused, "delay": self.delay, "notice": self.notice,
                "svg": self._picture(seat) if hidden else self.game.render_svg(row),
                "can_undo": bool(self.undo_points) and not self.over,
                "returns": self.returns.tolist() if self.over else None,
                "scores": self._scores(hidden, seat), "record": self.saved,
                "record_file": self._served_name(),
                # the position text only when it hides nothing (it holds every secret)
                "position": None if hidden else self.game.to_text(row)}
        return view

    def _line(self, entry, seat):
        """A log line as ``seat`` may read it: a chance outcome dealt to another seat is
        said, not shown, until the game ends."""
        private = entry.get("to")
        if private is None or private == seat or self.over:
            return {"who": entry["who"], "text": entry["text"]}
        return {"who": entry["who"], "text": f"chance: dealt to seat {private}"}

    def _picture(self, seat):
        """The picture as ``seat`` may see it; a spectator's (no seat) only what is public."""
        return self.game.render_drawing(self.state, seat, public=seat is None).svg()

    def _served_name(self):
        """The saved record's path relative to the served folder that holds it (what the
        replay view asks for), or None."""
        for folder in self.limits.folders if self.saved else ():
            if Path(self.saved).is_relative_to(Path(folder).resolve()):
                return str(Path(self.saved).relative_to(Path(folder).resolve()))
        return None

    @property
    def agent_to_move(self):
        """Whether an agent is to move (then the server's game loop plays it)."""
        p = self.to_move
        return p >= 0 and self.seats[p] is not None

    def _scores(self, hidden, seat):
        if hidden or not self.game.has_scores:
            return None
        return [int(x) for x in self.game.scores(self.state)[0]]

    # ----- changes -----------------------------------------------------------------------
    def move(self, seat, action, version):
        """Seat ``seat`` (a human, whose key was shown) plays ``action`` in the game at
        ``version`` (the number of events the client has seen: a stale click is refused)."""
        if seat is None:
            raise BadRequest("a move needs the key of the seat to move (header X-Seat-Key)",
                             403)
        action = _checked_int("action", action, 0, self.game.num_actions - 1)
        version = _checked_int("version", version, 0, 10**9)
        if version != len(self.events):
            raise BadRequest(f"stale move: the game is at version {len(self.events)}, the "
                             f"move was made at version {version}; reload the game", 409)
        if self.over:
            raise BadRequest("the game is over", 409)
        if self.to_move != seat:
            raise BadRequest(f"it is not seat {seat}'s turn (seat {self.to_move} is to move)",
                             409)
        if self.seats[seat] is not None:
            raise BadRequest(f"seat {seat} is played by {self.labels[seat]}, not a human", 409)
        legal = self.game.legal_actions(self.state[0])
        if action not in legal:
            names = ", ".join(f"{a} ({self.game.action_to_string(self.state[0], a)})"
                              for a in legal[:12])
            raise BadRequest(f"illegal move {action} here; legal: {names}"
                             + (", ..." if len(legal) > 12 else ""), 409)
        self.undo_points.append((seat, len(self.events), self.state.copy(),
                                 self.returns.copy(), len(self.log)))
        self._apply(seat, action)

    def undo(self, seat):
        """Take back ``seat``'s last move and everything after it (agents' moves, chance),
        if it is the last human move; the record keeps where moves were taken back."""
        if seat is None:
            raise BadRequest("an undo needs the key of the seat whose move it takes back "
                             "(header X-Seat-Key)", 403)
        if self.over:
            raise BadRequest("the game is over: it was saved as it ended", 409)
        last = self._last_mover()
        if last is None:
            raise BadRequest("no human move to undo", 409)
        if last != seat:
            raise BadRequest(f"the last human move is seat {last}'s: only that seat may take "
                             "it back", 409)
        _, n, self.state, self.returns, lines = self.undo_points.pop()
        self.takebacks.append({"seat": seat, "at": n, "undone": len(self.events) - n})
        del self.events[n:], self.log[lines:]
        self.revision += 1

    def _last_mover(self):
        return self.undo_points[-1][0] if self.undo_points else None

    def agent_search(self):
        """What the agent to move must search: ``(version, args)`` with ``args`` those of
        ``workers.play`` (the game, the agent's spec, the state, the table's agent stream for
        this decision), or None if no agent is to move. The server runs it in a search
        worker."""
        if not self.agent_to_move:
            return None
        spec = self.seats[self.to_move].spec
        return len(self.events), (self.game, spec, self.state.copy(), self._stream("agent"))

    def apply_agent(self, version, action):
        """Play an agent's ``action`` chosen at ``version`` (ignored if the game moved on)."""
        if version == len(self.events) and self.agent_to_move:
            self._apply(self.to_move, action)

    def play_agents(self):
        """Every agent move until a human is to move or the game ends, searched here."""
        while (search := self.agent_search()) is not None:
            version, args = search
            self.apply_agent(version, workers.play(*args))

    def _apply(self, seat, action):
        name = self.game.action_to_string(self.state[0], action)
        self.returns += self.game.step_inplace(self.state, np.array([action]))[0]
        self.events.append((seat, action))
        self.log.append({"who": seat, "text": f"seat {seat} ({self.labels[seat]}): {name}"})
        self.revision += 1
        self._settle()

    def _settle(self):
        """Roll the dice and draw the tiles that come next; save the record at the end."""
        while self.to_move == CHANCE:
            private = outcome_owner(self.game, self.state)
            outcome = int(self.game.sample_chance(self.state, self._stream("chance"))[0])
            self.game.apply_chance(self.state, [outcome])
            self.events.append((CHANCE, outcome))
            self.log.append({"who": CHANCE, "to": private,
                             "text": f"chance: {outcome_name(self.game, outcome)}"})
        if self.over and self.saved is None and self.limits.save is not None:
            self._keep()

    def _stream(self, purpose):
        """A generator fixed by the table's seed, ``purpose`` and the events so far: the same
        history draws the same dice, tiles and agent choices, so that an undo followed by the
        same move cannot fish for other dice."""
        text = json.dumps([purpose, self.seed, self.events])
        digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        return np.random.default_rng(int.from_bytes(digest, "little"))

    def _keep(self):
        """Save the finished game to ``--save``, or, if it cannot be written there (the folder
        became a file, a full disk), to a folder of the system's temporary files; either
        way one log line. Until it is written the table is not freed."""
        try:
            self.saved = str(self.save(self.limits.save))
            return
        except (OSError, ValueError) as err:
            problem = f"{err.strerror if isinstance(err, OSError) else err}"
        try:
            fallback = tempfile.mkdtemp(prefix="savanna-played-")  # private, new
            self.saved = str(self.save(fallback))
            LOG.warning("savanna serve: cannot write the finished game to --save %s (%s); "
                        "written to %s instead", self.limits.save, problem, self.saved)
        except (OSError, ValueError) as err:
            LOG.error("savanna serve: cannot write the finished game to --save %s (%s) nor to "
                      "a temporary folder (%s); it stays in memory", self.limits.save, problem,
                      err)

    @property
    def unsaved(self):
        """Whether the game has ended and should have been written, and is not yet."""
        return self.over and self.saved is None and self.limits.save is not None

    def record(self):
        """The game as a record (``savanna.records``), as ``savanna match --records`` writes.
        Before the end the seed is left out: it tells every die and tile to come, and the
        agents' choices."""
        seed = self.seed if self.over else None
        return make_record(self.game, self.start, self.events, self.labels, seed,
                           {"command": "serve", "table": self.id}, self.takebacks)

    # ----- pace ----------------------------------------------------------------------------
    def set_pace(self, paused=None, delay=None):
        """The agents' pace, which the server's game loop honours: ``paused`` (they wait;
        resuming clears a failed search's notice), ``delay`` (seconds, 0 to 10, between two
        agents' moves). None leaves a setting as it is."""
        if paused is not None and not isinstance(paused, bool):
            raise BadRequest(f"paused must be true or false, got {clip(paused)}")
        if delay is not None and (isinstance(delay, bool) or not isinstance(delay, int | float)
                                  or not 0 <= delay <= MAX_DELAY):
            raise BadRequest(f"delay must be a number of seconds in 0..{MAX_DELAY}, got "
                             f"{clip(delay)}")
        if paused is not None:
            self.paused = paused
            self.notice = self.notice if paused else None
        if delay is not None:
            self.delay = float(delay)
        self.revision += 1

    def pause(self, notice):
        """Stop the agents after a search that failed, saying why (a click resumes)."""
        self.paused, self.notice = True, notice
        self.revision += 1

    def save(self, folder):
        """Write the record to a new file in ``folder``, named as a player would: the game, the
        date, the players and who won (``zebres-20261206-004512-greedy-vs-human-human-wins``);
        its path."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        record = self.record()
        name = f"{self.game.name}-{stamp()}-{played_by(record.agents, record.returns)}"
        path, n = folder / f"{name}.jsonl", 1
        while path.exists():  # two games ended in the same second
            n += 1
            path = folder / f"{name}-{n}.jsonl"
        return write_records(path, [record])


def _short_name(label):
    """An agent's name without its settings, and for an import path only its class."""
    name, _ = split_spec(label)
    return name.rpartition(":")[2] if is_import_path(name) else name


def played_by(agents, returns):
    """The players (each agent's name, its settings left out) and the result as a file name's
    words: ``greedy-vs-random-random-wins``, ``human-vs-human-seat1-wins`` (one name twice: the
    seat), ``...-draw``, ``...-shared``.

    >>> played_by(["mcts:sims=50", "random"], [1.0, -1.0])
    'mcts-vs-random-mcts-wins'

    An agent of one's own is named by its class, not by the path of its file:

    >>> played_by(["/home/ada/bots/mine.py:FirstMove:depth=2", "random"], [1.0, -1.0])
    'FirstMove-vs-random-FirstMove-wins'
    """
    names = [re.sub(r"[^A-Za-z0-9.]+", "-", _short_name(a)).strip("-")[:32] or "agent"
             for a in agents]
    best = max(returns)
    winners = [p for p, r in enumerate(returns) if r == best]
    if len(winners) == len(returns):
        result = "draw"
    elif len(winners) > 1:
        result = "shared"
    else:
        p = winners[0]
        result = f"{names[p] if names.count(names[p]) == 1 else f'seat{p}'}-wins"
    return f"{'-vs-'.join(names)}-{result}"


def _checked_int(name, value, low, high):
    try:
        return check_int(name, value, low, high)
    except ValueError as err:
        raise BadRequest(str(err)) from None


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value

