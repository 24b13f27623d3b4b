"""Agents decide from what their seat may know: the arena hands an agent of a game with hidden
information a state whose secrets are redrawn from its seat's knowledge (``savanna.seats``), so
an agent that reads everything it is handed gains nothing; an agent that declares ``oracle``
sees the truth and is named an oracle in results and records."""
import numpy as np
import pytest
from scipy import stats

from savanna.agents import make_agent, play_match
from savanna.agents.play.base import describe, random_argmax
from savanna.conformance import configs, make, play_random
from savanna.registry import GAMES, make_game
from savanna.seats import seat_view
from tests.agents.tiny_games import HighCard, LiarsDice


class LookAhead:
    """A look-ahead through ``game.step``, ``depth`` plies (1 or 2): a move that wins at once
    if there is one, never one that loses at once (nor, at depth 2, one after which the next
    player can make it lose at once), else any: the first agent many people write, and one
    that reads every secret of the state it is handed."""

    name = "lookahead"

    def __init__(self, depth=1):
        self.depth = depth

    def act(self, game, states, rng):
        players = game.current_player(states)
        return random_argmax(self.values(game, states, players, self.depth), rng)

    def values(self, game, states, players, depth, worst=False):
        """``float[n, A]``: each legal move's value to ``players`` (-inf where illegal, +inf
        for the replies' minimum), 0 where nothing ends within ``depth`` plies."""
        mask = game.legal_mask(states)
        values = np.where(mask, 0.0, np.inf if worst else -np.inf)
        for a in range(game.num_actions):
            rows = np.flatnonzero(mask[:, a])
            if not len(rows):
                continue
            after, rewards = game.step(states[rows], np.full(len(rows), a))
            mine = rewards[np.arange(len(rows)), players[rows]].astype(np.float64)
            ended = game.is_terminal(after)
            deciding = ~ended & (game.current_player(after) >= 0)
            if depth > 1 and deciding.any():
                later = self.values(game, after[deciding], players[rows][deciding], depth - 1,
                                    worst=True)
                mine[deciding] += np.where(np.isfinite(later), later, 0).min(axis=1)
            values[rows, a] = np.where(ended | deciding, mine, 0.0) if depth > 1 else \
                np.where(ended, mine, 0.0)
        return values


class Oracle(LookAhead):
    """The same agent handed the true state."""

    oracle = True


class RedrawnOracle(Oracle):
    """An oracle that redraws the state itself, as the arena does for every other agent."""

    def act(self, game, states, rng):
        return super().act(game, seat_view(game, states, rng), rng)


class FreshRedraw(Oracle):
    """The look-ahead handed the true state, which it redraws itself for the seat to move
    with ``game.resample_hidden`` from a generator of its own, apart from the match's."""

    def __init__(self, depth, seed):
        super().__init__(depth)
        self.own = np.random.default_rng(seed)

    def act(self, game, states, rng):
        players = game.current_player(states)
        redrawn = states.copy()
        for p in np.unique(players):
            rows = np.flatnonzero(players == p)
            redrawn[rows] = game.resample_hidden(states[rows], int(p), self.own)
        return super().act(game, redrawn, rng)


def hidden_games():
    """Every registered game with hidden information (its smallest player count), and the
    toys."""
    seen = set()
    for name, options in configs():
        game = make(name, options)
        if not game.perfect_information and name not in seen:
            seen.add(name)
            yield name, game
    yield "high_card", HighCard()
    yield "liars_dice", LiarsDice()


def shipped(game):
    """Whether ``game`` is one of the project's own (a long game: a thousand matches of it take
    minutes), not a toy or a plug-in's."""
    return type(game).__module__.startswith("savanna.")


def score(game, agent, games, seed=3, opponent="mcts:sims=50", record=True):
    """The match of ``agent`` against ``opponent`` in every other seat."""
    return play_match(game, [agent, *[make_agent(opponent)] * (game.num_players - 1)],
                      games=games, seed=seed, workers=1, progress=False, record=record)


@pytest.mark.parametrize("name, game", list(hidden_games()), ids=lambda x: str(x))
def test_an_agent_that_reads_everything_plays_as_one_handed_a_redrawn_state(name, game):
    """The arena's games with the look-ahead are exactly those of an oracle that redraws the
    state itself: same seed, same draws, same moves, same returns."""
    games = 2 * game.num_players if name in GAMES else 40
    arena = score(game, LookAhead(), games)
    redrawn = score(game, RedrawnOracle(), games)
    assert (arena.returns == redrawn.returns).all()
    assert arena.summary()[0]["score"] == redrawn.summary()[0]["score"]


def difference(first, second):
    """Agent 0's mean score in match ``first`` minus that in ``second`` (independent games),
    and Welch's two-sample p-value for equal means."""
    a, b = first.scores()[:, 0], second.scores()[:, 0]
    return a.mean() - b.mean(), stats.ttest_ind(a, b, equal_var=False).pvalue


@pytest.mark.parametrize("name, game", [
    pytest.param(name, game, marks=[pytest.mark.slow] if shipped(game) else [])
    for name, game in hidden_games()], ids=lambda x: str(x))
def test_the_arena_scores_a_reader_as_one_that_redraws_the_state_itself(name, game):
    """In the arena the look-ahead that reads everything it is handed scores against
    mcts:sims=50 within 5 points of the same agent handed the true state, which it redraws
    itself from a generator of its own, at another match seed: no detectable difference
    (Welch's test). In the toys it looks two plies ahead (in Liar's Dice that much reads the
    dice: handed them, it scores about 8 points more), as in a plug-in's game; in the project's
    own games one (each of its moves steps every move of every state), over 400 games."""
    games, depth = (400, 1) if shipped(game) else (1000, 2)
    arena = score(game, LookAhead(depth), games, seed=11, record=False)
    own = score(game, FreshRedraw(depth, seed=5), games, seed=12, record=False)
    gap, p = difference(arena, own)
    assert abs(gap) <= 0.05 and p > 0.01, (gap, p, arena.table(), own.table())


def test_reading_the_dice_wins_liars_dice_and_the_arena_takes_it_away():
    """Handed the truth, the two-ply look-ahead bids only what the six dice hold and calls
    every false bid: against mcts:sims=400 it wins about nine games in ten; the same agent
    handed what its seat knows, as the arena hands it, wins far fewer (against mcts:sims=50,
    which bids nearly at random in this toy, even it wins nearly nine in ten)."""
    game = LiarsDice()
    oracle = score(game, Oracle(depth=2), 400, opponent="mcts:sims=400").summary()[0]
    fair = score(game, LookAhead(depth=2), 400, opponent="mcts:sims=400").summary()[0]
    assert oracle["score_ci"][0] > 0.85 and fair["score_ci"][1] < 0.75, (oracle, fair)
    duel = play_match(game, [Oracle(depth=2), LookAhead(depth=2)], games=200, seed=3,
                      workers=1, progress=False)
    assert duel.summary()[0]["score_ci"][0] > 0.7, duel.table()


def test_an_oracle_is_named_so_in_results_and_records():
    result = score(LiarsDice(), Oracle(), 2)
    assert describe(Oracle()) == "lookahead:depth=1 (oracle)"
    assert result.agents[0] == "lookahead:depth=1 (oracle)"
    assert "lookahead:depth=1 (oracle)" in result.table()
    assert all("lookahead:depth=1 (oracle)" in record.agents for record in result.records)
    assert describe(LookAhead()) == "lookahead:depth=1"


def test_make_agent_reads_back_an_oracle_s_name():
    assert describe(make_agent("random (oracle)")) == "random"


def test_seat_view_keeps_what_the_mover_knows():
    game = LiarsDice()
    rng = np.random.default_rng(0)
    s = game.init(64, rng=rng)
    while (game.current_player(s) == -1).any():
        game.apply_chance(s, game.sample_chance(s, rng))
    view = seat_view(game, s, rng)
    assert (view["dice"][:, :2] == s["dice"][:, :2]).all()  # seat 0 to move: its own dice
    assert (view["dice"][:, 2:] != s["dice"][:, 2:]).any()  # the others' redrawn
    assert (game.observe(view, 0) == game.observe(s, 0)).all()
    perfect = make_game("zebres")
    t = perfect.init(2, rng=0)
    assert seat_view(perfect, t, rng) is t


@pytest.mark.parametrize("spec", ["mcts:sims=64", "az:baseline,sims=16"])
def test_the_shipped_searches_play_from_the_seat_view_exactly_as_from_the_truth(spec):
    """The searches determinize from ``resample_hidden``, which reads only what the seat has
    seen: handed a redrawn state they search the very worlds they searched from the true one,
    so at equal seeds they choose the same moves; their strength is unchanged."""
    game = make_game("banjooli", num_players=2)
    rng = np.random.default_rng(4)
    states = []
    play_random(game, game.init(6, rng=4), rng, on_step=lambda s: states.append(s.copy()))
    states = np.concatenate(states)
    states = states[game.current_player(states) >= 0][::7][:12]
    agent = make_agent(spec)
    truth = agent.act(game, states, np.random.default_rng(1))
    view = seat_view(game, states, np.random.default_rng(2))
    assert view.tobytes() != states.tobytes()  # the others' cards were redrawn
    assert (agent.act(game, view, np.random.default_rng(1)) == truth).all()
