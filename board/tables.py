"""One game being played by ``savanna serve``: its seats (humans and agents), moves, chance,
undo, what each seat may see, and the record written when it ends. No HTTP here, no lock and no
storage: ``board.master`` applies every change to a table, journals it (``board.journal``) and
tells the pages; a table only checks a change and makes it.

>>> from savanna.board.tables import Limits, Table
>>> table = Table.new("zebres", {}, ["human", "random"], seed=0, limits=Limits())
>>> view = table.view(0)                 # the board as seat 0 sees it, and its legal moves
>>> table.move(0, view["moves"][0]["action"], view["version"])
>>> table.play_agents()                  # the agents' moves and the chance outcomes after it
"""
import hashlib
import hmac
import json
import secrets
from pathlib import Path

import numpy as np

from savanna.argument_types import option_names
from savanna.board import saving, workers
from savanna.board.limits import Limits
from savanna.board.refusals import Refused, checked_int
from savanna.board.seating import HUMAN, check_agent, parse_options
from savanna.errors import clip
from savanna.game import CHANCE, TERMINAL
from savanna.records import make_record
from savanna.registry import make_game
from savanna.seats import outcome_owner

__all__ = ["Limits", "MAX_SEATS", "Table", "outcome_name", "view_picture"]

MAX_DELAY = 10  # the slowest pace of the agents' moves, in seconds
MAX_SEATS = 8  # more than any game seats


def outcome_name(game, outcome):
    """A chance outcome as the game names it (a tile value, a die face), else its number."""
    name = getattr(game, "outcome_to_string", None)
    return name(outcome) if name is not None else str(outcome)


def view_picture(game, row, seat):
    """The SVG of ``row`` as ``seat`` may see it (None: everything)."""
    return game.render_svg(row, None if game.perfect_information else seat)


class Table:
    """One game being played: its seats (None for a human, else an ``AgentSpec``), states,
    events and the points where undo returns. Every method checks its request and raises
    ``Refused``, leaving the table as it was. ``snapshot`` and ``restore`` carry a table over
    a restart (``board.journal``): its seat keys only as hashes, its state replayed from the
    seed and the events."""

    def __init__(self, game, options, seats, labels, seed, limits, *, typed=None,
                 table_id=None, key_hashes=None, control_hash=None):
        self.id = table_id or secrets.token_urlsafe(16)  # 128 bits: who knows it was told it
        self.keys, self.control = {}, None  # the keys in clear: only while the maker answers
        if key_hashes is None:
            self.keys = {p: secrets.token_urlsafe(16) for p, agent in enumerate(seats)
                         if agent is None}  # a human seat's key: whoever holds it plays there
            self.control = secrets.token_urlsafe(16)  # asks the agents to move; no seat
            key_hashes = {p: _hashed(k) for p, k in self.keys.items()}
            control_hash = _hashed(self.control)
        self.key_hashes, self.control_hash = key_hashes, control_hash
        self.game, self.options, self.seats, self.labels = game, options, seats, labels
        self.typed = typed or labels  # each seat as the person typed it (az:baseline)
        self.seed, self.limits = seed, limits  # the seed is secret until the end
        self.state = game.init(1, np.random.default_rng(seed))
        self.start = self.state.copy()
        self.events = []       # (who, value): a seat and its action, or CHANCE and the outcome
        self.log = []          # one line per event, what every seat may see
        self.returns = np.zeros(game.num_players)
        self.undo_points = []  # (seat, events, state, returns, log) before each human move
        self.takebacks = []    # {"seat", "at", "undone"}: the record's moves taken back
        self.saved = None      # the record's path once the game has ended
        self.paused = False    # the agents wait (a click on Pause, or a search that failed)
        self.delay = 0.0       # seconds between two agents' moves (to watch them)
        self.notice = None     # why the agents wait, when a search failed
        self.preparing = None  # what an agent is getting ready for (its first compile)
        self.revision = 0      # changes so far (moves, undos, pace): a page keeps the latest

    @classmethod
    def new(cls, game_name, options, seats, seed, limits, paused=False, delay=0.0):
        """A table from a request's fields: ``options`` (see ``parse_options``), ``seats``
        (``"human"`` or an agent spec per seat; their number sets ``num_players`` when the
        options leave it out), ``seed`` (an int, or None for one from the operating system),
        and its pace (see ``set_pace``)."""
        if not isinstance(game_name, str):
            raise Refused(f"game must be a name, got {clip(game_name)}")
        if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
            raise Refused(f"seats must be a list of 'human' or agent specs, one per seat, "
                             f"got {clip(seats)}")
        try:
            allowed = option_names(game_name)  # an unknown game is named here
        except ValueError as err:
            raise Refused(str(err)) from None
        items = options if options is not None else []
        if isinstance(items, dict):
            items = [f"{k}={v}" for k, v in items.items()]
        if isinstance(items, list) and "num_players" in allowed and not any(
                str(x).partition("=")[0].strip() == "num_players" for x in items):
            items = [*items, f"num_players={len(seats)}"]
        options, game = parse_options(game_name, items, limits)
        if len(seats) != game.num_players:
            raise Refused(f"{game_name} with these options has {game.num_players} seats, "
                             f"got {len(seats)}")
        agents = [None if s == HUMAN else check_agent(s, limits) for s in seats]
        labels = [HUMAN if a is None else a.label for a in agents]
        if seed is None:
            seed = secrets.randbits(63)
        seed = checked_int("seed", seed, 0, 2**63 - 1)
        table = cls(game, options, agents, labels, seed, limits, typed=list(seats))
        table.set_pace(paused, delay)
        table.settle()
        return table

    # ----- over a restart ------------------------------------------------------------------
    def snapshot(self):
        """What ``restore`` needs, as JSON-able values: the game and its options, the seats as
        typed, the seed, the events, the takebacks, the pace, the keys' hashes."""
        return {"id": self.id, "game": self.game.name,
                "options": {k: _jsonable(v) for k, v in self.options.items()},
                "seats": self.typed, "seed": self.seed,
                "events": [[int(who), int(value)] for who, value in self.events],
                "takebacks": self.takebacks, "paused": self.paused, "delay": self.delay,
                "notice": self.notice, "revision": self.revision,
                "keys": {str(p): h for p, h in self.key_hashes.items()},
                "control": self.control_hash}

    @classmethod
    def restore(cls, snapshot, limits):
        """The table of ``snapshot`` (``Table.snapshot``), its moves replayed from the seed:
        the same state, log, undo points and secrets; a ValueError if it no longer makes sense
        (an agent whose checkpoint went, a game no longer installed)."""
        options = snapshot["options"]
        game = make_game(snapshot["game"], **{k: tuple(v) if isinstance(v, list) else v
                                               for k, v in options.items()})
        agents = [None if s == HUMAN else check_agent(s, limits) for s in snapshot["seats"]]
        labels = [HUMAN if a is None else a.label for a in agents]
        table = cls(game, options, agents, labels, snapshot["seed"], limits,
                    typed=snapshot["seats"], table_id=snapshot["id"],
                    key_hashes={int(p): h for p, h in snapshot["keys"].items()},
                    control_hash=snapshot["control"])
        for who, value in snapshot["events"]:
            if who == CHANCE:
                table._chance(value)
            else:
                if agents[who] is None:
                    table._keep_undo_point(who)
                table._step(who, value)
        table.takebacks = snapshot["takebacks"]
        table.paused, table.delay = snapshot["paused"], snapshot["delay"]
        table.notice, table.revision = snapshot["notice"], snapshot["revision"]
        table.settle()
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
        key (which opens no seat); a Refused (forbidden) for a key that is not this table's."""
        if key is None:
            return None
        given = _hashed(key)
        for seat, hashed in self.key_hashes.items():
            if hmac.compare_digest(hashed, given):
                return seat
        if hmac.compare_digest(self.control_hash, given):
            return None
        raise Refused("this X-Seat-Key opens no seat of this game: use the key the game's "
                      "creation answered, or an invitation link", "forbidden")

    def holds_key(self, key):
        """Whether ``key`` is one of this table's (a seat's or the control key)."""
        try:
            return key is not None and (self.seat_of(key) is not None
                                        or hmac.compare_digest(self.control_hash, _hashed(key)))
        except Refused:
            return False

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
                "seats": self.typed, "seat": seat, "seed": self.seed if self.over else None,
                "version": len(self.events), "revision": self.revision,
                "to_move": self.to_move, "over": self.over,
                "agent_to_move": self.agent_to_move, "moves": moves,
                "log": [self._line(entry, seat) for entry in self.log],
                "paused": self.paused, "delay": self.delay, "notice": self.notice,
                "preparing": self.preparing,
                "svg": self._picture(seat) if hidden else self.game.render_svg(row),
                "can_undo": bool(self.undo_points) and not self.over,
                "returns": self.returns.tolist() if self.over else None,
                "scores": self._scores(hidden, seat), "record": self._shown_name(),
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

    def _shown_name(self):
        """The saved record as a page may name it: relative to its served folder, else its
        file name alone (a page never sees the server's folders)."""
        return self._served_name() or (Path(self.saved).name if self.saved else None)

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
            raise Refused("a move needs the key of the seat to move (header X-Seat-Key)",
                             "forbidden")
        action = checked_int("action", action, 0, self.game.num_actions - 1)
        version = checked_int("version", version, 0, 10**9)
        if version != len(self.events):
            raise Refused(f"stale move: the game is at version {len(self.events)}, the "
                             f"move was made at version {version}; reload the game", "conflict")
        if self.over:
            raise Refused("the game is over", "conflict")
        if self.to_move != seat:
            raise Refused(f"it is not seat {seat}'s turn (seat {self.to_move} is to move)",
                             "conflict")
        if self.seats[seat] is not None:
            raise Refused(f"seat {seat} is played by {self.typed[seat]}, not a human",
                          "conflict")
        legal = self.game.legal_actions(self.state[0])
        if action not in legal:
            names = ", ".join(f"{a} ({self.game.action_to_string(self.state[0], a)})"
                              for a in legal[:12])
            raise Refused(f"illegal move {action} here; legal: {names}"
                             + (", ..." if len(legal) > 12 else ""), "conflict")
        self._keep_undo_point(seat)
        self._apply(seat, action)

    def _keep_undo_point(self, seat):
        self.undo_points.append((seat, len(self.events), self.state.copy(),
                                 self.returns.copy(), len(self.log)))

    def undo(self, seat):
        """Take back ``seat``'s last move and everything after it (agents' moves, chance),
        if it is the last human move; the record keeps where moves were taken back."""
        if seat is None:
            raise Refused("an undo needs the key of the seat whose move it takes back "
                             "(header X-Seat-Key)", "forbidden")
        if self.over:
            raise Refused("the game is over: it was saved as it ended", "conflict")
        last = self._last_mover()
        if last is None:
            raise Refused("no human move to undo", "conflict")
        if last != seat:
            raise Refused(f"the last human move is seat {last}'s: only that seat may take "
                             "it back", "conflict")
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
        self._step(seat, action)
        self.revision += 1
        self.settle()

    def _step(self, seat, action):
        name = self.game.action_to_string(self.state[0], action)
        self.returns += self.game.step_inplace(self.state, np.array([action]))[0]
        self.events.append((seat, action))
        self.log.append({"who": seat, "text": f"seat {seat} ({self.typed[seat]}): {name}"})

    def _chance(self, outcome):
        private = outcome_owner(self.game, self.state)
        self.game.apply_chance(self.state, [outcome])
        self.events.append((CHANCE, outcome))
        self.log.append({"who": CHANCE, "to": private,
                         "text": f"chance: {outcome_name(self.game, outcome)}"})

    def settle(self):
        """Roll the dice and draw the tiles that come next; save the record at the end."""
        while self.to_move == CHANCE:
            self._chance(int(self.game.sample_chance(self.state, self._stream("chance"))[0]))
        if self.unsaved:
            self.saved = saving.keep(self.record(), self.game, self.limits.save)

    def _stream(self, purpose):
        """A generator fixed by the table's seed, ``purpose`` and the events so far: the same
        history draws the same dice, tiles and agent choices, so that an undo followed by the
        same move cannot fish for other dice."""
        text = json.dumps([purpose, self.seed, self.events])
        digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        return np.random.default_rng(int.from_bytes(digest, "little"))

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
            raise Refused(f"paused must be true or false, got {clip(paused)}")
        if delay is not None and (isinstance(delay, bool) or not isinstance(delay, int | float)
                                  or not 0 <= delay <= MAX_DELAY):
            raise Refused(f"delay must be a number of seconds in 0..{MAX_DELAY}, got "
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

def _hashed(key):
    """A seat key as the table keeps it: its SHA-256 (a key is 128 random bits, so a fast hash
    is enough; a stolen journal opens no seat)."""
    return hashlib.sha256(key.encode()).hexdigest()


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value

