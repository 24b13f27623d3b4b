"""A batch is checked once per agent call (issue #22): the public entry checks what enters,
and every state below it (the root, the search's own states, resampled ones) goes through
``game.unchecked``; self-play and distillation, whose states their kernels made, check none
(issue #35). The test counts the calls to the single row checker, ``Game.check_states``
(``check_actions``, the other row checker, would mean a step through the checked API)."""
import numpy as np
import pytest

from savanna.agents.models.az_config import AZConfig
from savanna.agents.play.az_agent import AZAgent
from savanna.agents.play.exact import solve
from savanna.agents.play.greedy import GreedyAgent
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.training.alphazero import SelfPlay
from savanna.agents.training.distill import DistillConfig, play_part
from savanna.game import CHANCE, Game
from tests.agents.tiny_games import DiceRace, HighCard, Nim


@pytest.fixture
def checks(monkeypatch):
    """``checks["check_states"]`` / ``["check_actions"]``: the calls made so far."""
    counts = {"check_states": 0, "check_actions": 0}
    for name in counts:
        checker = getattr(Game, name)

        def counted(self, *args, _checker=checker, _name=name, **kwargs):
            counts[_name] += 1
            return _checker(self, *args, **kwargs)

        monkeypatch.setattr(Game, name, counted)
    return counts


def decision_nodes(game, n, rng=0):
    """Up to ``n`` states at decision nodes, up to three random plies into their games (fewer
    where every game has ended sooner: a game may last a single decision)."""
    rng = np.random.default_rng(rng)
    s = game.init(n, rng)
    for _ in range(4):
        while (chance := game.current_player(s) == CHANCE).any():
            sub = s[chance]
            game.apply_chance(sub, game.sample_chance(sub, rng))
            s[chance] = sub
        s = s[game.current_player(s) >= 0]
        if not len(s):
            break
        found = s.copy()
        game.step_inplace(s, [rng.choice(np.flatnonzero(m)) for m in game.legal_mask(s)])
    return found


def uniform_evaluator(num_players):
    def evaluate(obs, mask, players):
        return mask.astype(np.float64), np.zeros((len(mask), num_players))
    return evaluate


def uct(game):
    """UCT, determinized where information is hidden."""
    return MCTSAgent(sims=12, determinizations=None if game.perfect_information else 3)


def puct(game):
    """PUCT with rollouts mixed in: its evaluator sees observations and masks, and leaves
    are played out (the calls UCT makes in compiled code)."""
    return MCTSAgent(sims=12, evaluator=uniform_evaluator(game.num_players), rollout_weight=0.5,
                     leaf_batch=4, determinizations=None if game.perfect_information else 3)


def check_counts(checks, call):
    """The checks ``call()`` makes."""
    checks.update(check_states=0, check_actions=0)
    call()
    return dict(checks)


ONCE = {"check_states": 1, "check_actions": 0}
NONE = {"check_states": 0, "check_actions": 0}
TINY_GAMES = [lambda: Nim((1, 2, 2)), DiceRace, HighCard]  # each case, and cheap to compile


def test_mcts_act_checks_its_batch_once(game, checks):
    states = decision_nodes(game, 6)
    rng = np.random.default_rng(0)
    assert check_counts(checks, lambda: uct(game).act(game, states, rng)) == ONCE


@pytest.mark.parametrize("entry", ["search", "analyse", "trees"])
def test_each_mcts_entry_checks_its_state_once(game, checks, entry):
    row = decision_nodes(game, 6)[:1]
    rng = np.random.default_rng(0)
    assert check_counts(checks, lambda: list(getattr(uct(game), entry)(game, row, rng))) == ONCE


@pytest.mark.parametrize("make", TINY_GAMES)
def test_puct_with_rollouts_checks_its_batch_once(make, checks):
    game = make()
    states = decision_nodes(game, 6)
    rng = np.random.default_rng(0)
    assert check_counts(checks, lambda: puct(game).act(game, states, rng)) == ONCE


@pytest.mark.parametrize("game, text", [
    (Nim((1, 2, 2)), "heaps=1,2,2 to_move=0"),
    (DiceRace(), "pos=11,7 dice=1,1 to_move=1 turns_left=2 over=0"),  # through chance nodes
], ids=["nim", "dice"])
def test_the_exact_solve_checks_its_state_once(game, text, checks):
    row = game.from_text(text)
    assert check_counts(checks, lambda: solve(game, row)) == ONCE


def test_greedy_checks_its_batch_once(game, checks):
    if not game.has_scores:
        pytest.skip(f"{game.name} has no score for greedy to play on")
    states = decision_nodes(game, 6)
    rng = np.random.default_rng(0)
    assert check_counts(checks, lambda: GreedyAgent(2).act(game, states, rng)) == ONCE


def test_az_act_checks_its_batch_once(game, checks):
    agent = AZAgent("baseline", sims=8)
    try:
        agent.network(game)  # loaded first: a shipped network is for one configuration
    except ValueError as error:
        pytest.skip(str(error))
    states = decision_nodes(game, 6)
    rng = np.random.default_rng(0)
    assert check_counts(checks, lambda: agent.act(game, states, rng)) == ONCE


@pytest.mark.parametrize("make", TINY_GAMES)
def test_selfplay_checks_none_of_its_own_states(make, checks):
    """Starting games, searching, observing, stepping, chance and restarts: all on the states
    its kernels made, through ``game.unchecked``."""
    game = make()
    config = AZConfig(games=4, sims=4, max_considered=2, hidden=(8,), determinizations=2)
    rng = np.random.default_rng(0)
    assert check_counts(checks, lambda: SelfPlay(game, config, rng).play(6)) == NONE


@pytest.mark.parametrize("make", TINY_GAMES)
def test_distillation_checks_none_of_its_own_states(make, checks):
    game = make()
    config = DistillConfig(game=game.name, games=4, part_games=4, teacher="mcts:sims=4")
    assert check_counts(checks, lambda: play_part(game, config, 0)) == NONE
