"""Game records: one played game per line of a JSON Lines file, replayable state by state.

A record holds what reproduces the game exactly: the game and its options, the start position
in the game's notation (hidden information included), every decision and chance outcome, the
returns, the agents and where it was played. ``Record.states()`` replays it, checking every
event (a record that does not replay is a one-line ``ValueError`` naming its file and line).
The records guide (docs/guides/records.md) shows the format.

A match's records (``savanna match`` writes them to ``runs/match-.../records.jsonl``):

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match
>>> result = play_match(make_game("zebres"), [make_agent("random"), make_agent("greedy")],
...                     games=2, seed=0, workers=1, record=True)
>>> write_records("records.jsonl", result.records)
>>> records = read_records("records.jsonl")
>>> states = records[0].states()         # every state, start to end
>>> print(records[0].game().render(records[0].position(10)))
"""
import json
import math
from dataclasses import dataclass, field

import numpy as np

from savanna.codes import CHANCE, TERMINAL
from savanna.errors import clip
from savanna.files import atomic_write_text, check_new_file, parse_json, read_text
from savanna.metadata import run_metadata
from savanna.registry import make_game

__all__ = ["FORMAT", "Record", "make_record", "make_records", "read_record", "read_records",
           "write_records"]

FORMAT = "savanna-record/1"
MAX_RECORDS_BYTES = 2**30  # a records file is read whole
FIELDS = ("format", "game", "options", "rules_version", "package_version", "git_commit",
          "seed", "agents", "start", "moves", "returns", "info")


@dataclass
class Record:
    """One game as a record line holds it (``to_json`` writes it back)."""

    game_name: str
    options: dict
    start: str
    moves: list
    returns: list | None
    agents: list
    seed: int | None = None
    rules_version: str | None = None
    package_version: str | None = None
    git_commit: str | None = None
    info: dict = field(default_factory=dict)
    where: str = "record"  # "FILE line N", for error messages
    takebacks: list = field(default_factory=list)

    @property
    def plies(self):
        """The number of decisions."""
        return sum("action" in m for m in self.moves)

    def game(self):
        """The game of the record, built with its options."""
        try:
            return make_game(self.game_name, **self.options)
        except (TypeError, ValueError) as err:
            raise self.error(f"game {clip(self.game_name)} with options "
                             f"{clip(self.options)}: {err}") from None

    def states(self, game=None):
        """Every state of the game, a batch of ``len(moves) + 1``: the start, then the state
        after each event. Each event is checked as it is replayed: the node is a decision of that
        player or a chance node, the action legal and named as recorded, the outcome possible,
        the returns those recorded."""
        game = game or self.game()
        for name, values in (("returns", self.returns), ("agents", self.agents)):
            if values is not None and len(values) != game.num_players:
                raise self.error(f"{name} has {len(values)} entries, one per seat expected: "
                                 f"{game.num_players} for {game.name} with these options")
        try:
            row = game.from_text(self.start)
        except ValueError as err:
            raise self.error(f"start position: {err}") from None
        states = np.zeros(len(self.moves) + 1, game.state_dtype)
        states[0] = row[0]
        totals = np.zeros(game.num_players)
        for k, move in enumerate(self.moves):
            totals += self._apply(game, row, move, k)
            states[k + 1] = row[0]
        if self.returns is not None:
            if int(game.current_player(row)[0]) != TERMINAL:
                raise self.error(f"the game has returns but its {len(self.moves)} moves do "
                                 "not end it")
            if not np.allclose(totals, self.returns, rtol=1e-9, atol=1e-9):
                raise self.error(f"returns {clip(self.returns)} differ from those the moves "
                                 f"give, {clip(totals.tolist())}")
        return states

    def position(self, ply, game=None):
        """The state (a batch of one) in which decision ``ply`` is taken, or the final state
        for ``ply == plies``; a ValueError naming the allowed range otherwise."""
        return self.states(game)[[self.ply_index(ply)]]

    def ply_index(self, ply):
        """The index into ``states()`` of ``position(ply)``."""
        if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) \
                or not 0 <= ply <= self.plies:
            raise ValueError(f"ply must be in 0..{self.plies} ({self.where} has {self.plies} "
                             f"decisions), got {clip(ply)}")
        decisions = [k for k, m in enumerate(self.moves) if "action" in m]
        if ply == self.plies:
            return len(self.moves)
        return decisions[ply]

    def _apply(self, game, row, move, k):
        """Play event ``k`` on ``row`` in place; its rewards (zeros for chance)."""
        player = int(game.current_player(row)[0])
        what = f"move {k} ({clip(move)})"
        if "chance" in move:
            if player != CHANCE:
                raise self.error(f"{what} is a chance outcome but the state is not a chance "
                                 "node")
            try:
                game.apply_chance(row, [move["chance"]])
            except ValueError as err:
                raise self.error(f"{what}: {err}") from None
            return np.zeros(game.num_players)
        if player != move["player"]:
            who = {CHANCE: "a chance node", TERMINAL: "the end"}.get(player,
                                                                     f"seat {player} to move")
            raise self.error(f"{what} is seat {move['player']}'s decision but the state is "
                             f"at {who}")
        try:
            name = game.action_to_string(row[0], move["action"])
            named = move.get("move", name) == name or _names(game, row[0], move)
            rewards = game.step_inplace(row, [move["action"]])
        except ValueError as err:
            raise self.error(f"{what}: {err}") from None
        if not named:
            raise self.error(f"{what}: action {move['action']} is named {name!r} now")
        return rewards[0]

    def error(self, message):
        return ValueError(f"{self.where}: {message}")

    def to_json(self):
        """The record as the dict of one JSON line."""
        return {"format": FORMAT, "game": self.game_name, "options": self.options,
                "rules_version": self.rules_version, "package_version": self.package_version,
                "git_commit": self.git_commit, "seed": self.seed, "agents": self.agents,
                "start": self.start, "moves": self.moves, "returns": self.returns,
                "info": self.info, **({"takebacks": self.takebacks} if self.takebacks else {})}

    @classmethod
    def from_json(cls, data, where="record"):
        """A Record from the dict of one line, its fields checked (not yet replayed)."""
        def bad(message):
            return ValueError(f"{where}: {message}")

        if not isinstance(data, dict):
            raise bad(f"expected a JSON object, got {clip(data)}")
        if data.get("format") != FORMAT:
            raise bad(f"not a {FORMAT} record (its format field differs)")
        missing = [f for f in FIELDS if f not in data]
        if missing:
            raise bad(f"missing {', '.join(missing)}")
        checks = {"game": str, "options": dict, "start": str, "moves": list, "agents": list,
                  "info": dict}
        for name, kind in checks.items():
            if not isinstance(data[name], kind):
                raise bad(f"{name} must be a {kind.__name__}, got {clip(data[name])}")
        for name in ("rules_version", "package_version", "git_commit"):
            if not isinstance(data[name], str | None):
                raise bad(f"{name} must be a string or null, got {clip(data[name])}")
        for k, move in enumerate(data["moves"]):
            if not (_is_event(move, ("chance",)) or _is_event(move, ("player", "action"))):
                raise bad(f"move {k} must be {{\"player\": P, \"action\": A, \"move\": NAME}} "
                          f"or {{\"chance\": OUTCOME}}, got {clip(move)}")
        if data["seed"] is not None and not isinstance(data["seed"], int):
            raise bad(f"seed must be an int or null, got {clip(data['seed'])}")
        returns = data["returns"]
        if returns is not None and not (isinstance(returns, list) and all(
                _is_number(x) for x in returns)):
            raise bad(f"returns must be a list of numbers or null, got {clip(returns)}")
        takebacks = data.get("takebacks", [])
        if not isinstance(takebacks, list) or not all(
                isinstance(t, dict) and set(t) == {"seat", "at", "undone"}
                and all(isinstance(v, int) and not isinstance(v, bool) for v in t.values())
                for t in takebacks):
            raise bad(f"takebacks must be a list of {{\"seat\": P, \"at\": N, \"undone\": K}}, "
                      f"got {clip(takebacks)}")
        return cls(data["game"], data["options"], data["start"], data["moves"], returns,
                   data["agents"], data["seed"], data["rules_version"],
                   data["package_version"], data["git_commit"], data["info"], where,
                   takebacks)


def _names(game, row, move):
    """Whether ``move``'s recorded name still names its action in ``row``, as a name the game
    reads though it now writes another (Banjooli's ``reroll 0,5``, now ``reroll R,sorcery W``)."""
    try:
        return game.string_to_action(row, str(move["move"])) == move["action"]
    except ValueError:
        return False


def _is_event(move, keys):
    if not isinstance(move, dict) or set(move) - {*keys, "move"} or not set(keys) <= set(move):
        return False
    ints = all(isinstance(move[k], int) and not isinstance(move[k], bool) for k in keys)
    return ints and isinstance(move.get("move", ""), str)


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def make_record(game, start, events, agents, seed=None, info=None, takebacks=()):
    """The ``Record`` of one game played from ``start`` (a state row or batch of one) through
    ``events``: ``(who, value)`` pairs, a seat and its action or ``CHANCE`` and the outcome
    (``make_records`` with one game and one event per round); ``takebacks``: where moves
    were taken back (see the module's doc)."""
    rounds = [(np.array([who]), np.array([0]), np.array([value])) for who, value in events]
    record = make_records(game, start, rounds, [agents], seed, [info or {}])[0]
    record.takebacks = [dict(t) for t in takebacks]
    return record


def make_records(game, starts, rounds, agents, seed=None, infos=None):
    """The ``Record`` of each game of a batch played together, as the arena plays them: from
    ``starts`` (a batch) through ``rounds``, one ``(who, games, values)`` triple of arrays per
    round (game ``games[k]`` took action ``values[k]`` at seat ``who[k]``, or had chance
    outcome ``values[k]`` where ``who[k]`` is CHANCE; a game at most once per round).
    ``agents[g]`` lists game ``g``'s agents by seat, ``infos[g]`` its ``info``. The rounds are
    replayed a batch at a time to name each decision and sum the returns (None for a game
    that has not ended, e.g. a human left)."""
    states = game.check_states(np.array(starts, game.state_dtype, ndmin=1)).copy()
    n = len(states)
    moves: list[list] = [[] for _ in range(n)]
    totals = np.zeros((n, game.num_players))
    for who, games, values in rounds:
        chance = who == CHANCE
        for part in (chance, ~chance):
            g, v = games[part], values[part].astype(np.int64)
            if not len(g):
                continue
            sub = states[g]
            if part is chance:
                game.apply_chance(sub, v)
                events = [{"chance": x} for x in v.tolist()]
            else:
                seats = who[part].astype(np.int64)
                if (game.current_player(sub) != seats).any():
                    raise ValueError("a decision is logged for a seat that is not to move")
                events = [{"player": p, "action": a, "move": game.action_to_string(sub[k], a)}
                          for k, (p, a) in enumerate(zip(seats.tolist(), v.tolist()))]
                totals[g] += game.step_inplace(sub, v)
            states[g] = sub
            for i, event in zip(g.tolist(), events):
                moves[i].append(event)
    ended = game.is_terminal(states)
    meta = run_metadata(game)
    infos = infos if infos is not None else [{}] * n
    return [Record(game.name, meta["options"], game.to_text(starts[i: i + 1]), moves[i],
                   totals[i].tolist() if ended[i] else None, list(agents[i]), seed,
                   meta["rules_version"], meta["package_version"], meta["git_commit"],
                   dict(infos[i])) for i in range(n)]


def write_records(path, records, overwrite=False):
    """Write ``records`` (Records or their dicts) as JSON Lines to ``path``, atomically; an
    existing file is refused unless ``overwrite``. Returns the path."""
    path = check_new_file(path, overwrite)
    lines = [json.dumps(r.to_json() if isinstance(r, Record) else r, separators=(",", ":"))
             for r in records]
    atomic_write_text(path, "".join(line + "\n" for line in lines))
    return path


def read_record(path, index=0):
    """Game ``index`` (0 for the first) of a records file; a one-line ValueError naming the
    allowed range when the file holds fewer (``--game N`` of the command line)."""
    records = read_records(path)
    if not 0 <= index < len(records):
        raise ValueError(f"--game must be in 0..{len(records) - 1} ({path} holds "
                         f"{len(records)} records), got {index}")
    return records[index]


def read_records(path):
    """Every record of a JSON Lines file (lines end at ``\\n`` only; blank lines skipped), each
    checked field by field; a one-line ValueError naming the file and line of the first bad
    one. A file of more than ``MAX_RECORDS_BYTES`` is refused unread."""
    text = read_text(path, "records file", MAX_RECORDS_BYTES)
    records = []
    for n, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 is text
        if not line.strip():
            continue
        where = f"{path} line {n}"
        records.append(Record.from_json(parse_json(line, where), where))
    if not records:
        raise ValueError(f"{path} holds no records")
    return records
