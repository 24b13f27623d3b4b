"""Learn from your mistakes: a reviewed game's marked moves of one player as positions to retry.

``puzzles(review, record, player)`` gives one ``Puzzle`` per decision of ``player`` that the
review marked (inaccuracy, mistake or blunder): the position before the move, what chance dealt
since the previous decision (a die, a tile; a card dealt face down to another seat is hidden),
and every legal move with what it loses against the search's best, as a drop of the mover's
expected result (0 to 1, ``savanna.agents.play.review``'s unit). A move passes when it drops no
more than the review's threshold, the inaccuracy margin (the best move drops 0; a move the
search never tried has no drop and does not pass). The position is analysed again as the review
analysed it (same agent, same seed), so the best move is the review's.

The board's retry mode (``savanna serve``, Review, "Learn from your mistakes") asks the same
function for the same puzzles.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match, review
>>> result = play_match(make_game("zebres"), [make_agent("random"), make_agent("greedy")],
...                     games=1, seed=0, workers=1, record=True)
>>> record = result.records[0]
>>> found = puzzles(review(record, "mcts:sims=50"), record, player=0)
>>> found[0].answers, found[0].dealt, found[0].loss_of(found[0].played_action)
"""
import math
from dataclasses import asdict, dataclass

from savanna.agents.play.analysis import analyse
from savanna.agents.play.registry import make_agent
from savanna.agents.play.review import expected_result
from savanna.errors import check_int

__all__ = ["Puzzle", "dealt_before", "puzzle_of", "puzzles", "shown_drop"]


@dataclass
class Puzzle:
    """One position to retry (see the module docstring); ``moves`` holds one dict per legal move,
    best first: ``action``, ``move`` (its name), ``drop`` (None: the search never tried it) and
    ``passes``."""

    ply: int            # the decision's number in the game, from 0 (the board's move ply + 1)
    player: int
    position: str       # before the move, in the game's notation
    dealt: list         # the chance outcomes since the previous decision, named
    played: str
    played_action: int
    label: str          # the review's label of the move played
    best: str
    best_action: int
    threshold: float    # the inaccuracy margin: a move dropping no more passes
    moves: list

    @property
    def answers(self):
        """The actions that pass: as good as the best, within the margin."""
        return [m["action"] for m in self.moves if m["passes"]]

    def loss_of(self, action):
        """What ``action`` drops against the best (0 to 1), None if the search never tried it."""
        return next(m["drop"] for m in self.moves if m["action"] == action)

    def to_json(self):
        """A JSON-ready dict, the page's puzzle."""
        return asdict(self)


def puzzles(review, record, player, agent=None, game=None):
    """Every marked decision of ``player`` in ``review`` (of ``record``) as a ``Puzzle``, in the
    order played; ``agent`` searches the positions again (default: the review's own agent)."""
    game = game or record.game()
    player = check_int("player", player, 0, game.num_players - 1)
    agent = make_agent(agent or review.agent) if not hasattr(agent, "act") else agent
    states = record.states(game)
    out = []
    for d in review.marked:
        if int(d["player"]) != player:
            continue
        k = record.ply_index(int(d["ply"]))
        out.append(puzzle_of(game, states[k: k + 1], d, agent, review.seed, review.threshold,
                             dealt_before(record, game, states, k, player), shown_drop(d)))
    return out


def puzzle_of(game, row, decision, agent, seed, threshold, dealt, played_drop):
    """The ``Puzzle`` of one reviewed decision: ``decision`` is its row of the review
    (``ply``, ``player``, ``action``, ``move``, ``label``), ``row`` the state before it;
    the move played loses ``played_drop``, the drop its mark was shown with (the confirming
    search's where the review confirmed its marks)."""
    found = analyse(game, row, agent, rng=seed)
    mover = found.player
    best = found.rows[0]
    top = expected_result(best[f"value_{mover}"], game.num_players)
    moves = []
    for r in found.rows:
        value = r[f"value_{mover}"]
        drop = None if not math.isfinite(value) else top - expected_result(value,
                                                                           game.num_players)
        if int(r["action"]) == int(decision["action"]):
            drop = played_drop
        moves.append({"action": int(r["action"]), "move": r["move"], "drop": drop,
                      "passes": drop is not None and drop <= threshold})
    return Puzzle(int(decision["ply"]), mover, found.position, list(dealt), str(decision["move"]),
                  int(decision["action"]), str(decision["label"]), best["move"],
                  int(best["action"]), float(threshold), moves)


def shown_drop(decision):
    """The drop a reviewed decision's mark was shown with: the confirming search's where there
    was one (a number, not NaN or None), else the review's own."""
    confirmed = decision["confirmed_drop"]
    return float(decision["drop"] if confirmed is None or confirmed != confirmed else confirmed)


def dealt_before(record, game, states, k, player):
    """The names of the chance outcomes between the decision before event ``k`` and it; an
    outcome dealt to another seat alone is written "(hidden)"."""
    dealt = []
    j = k - 1
    while j >= 0 and "chance" in record.moves[j]:
        seat = game.chance_private_to(states[j: j + 1])
        outcome = record.moves[j]["chance"]
        dealt.append(game.outcome_to_string(outcome) if seat in (None, player) else "(hidden)")
        j -= 1
    return dealt[::-1]
