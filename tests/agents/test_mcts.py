"""MCTS on the tiny games: convergence to exact values, chance, three players, hidden cards,
the PUCT evaluator interface, options and determinism."""
import itertools
import re
import warnings

import numpy as np
import pytest

from savanna.agents.play.exact import solve
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.play.registry import make_agent
from tests.agents.tiny_games import FOLD, STAKE_2, STAY, DiceRace, HighCard, Nim

SMALL_NIMS = [h for h in itertools.product(range(5), repeat=3) if 0 < sum(h) <= 7]


def race(text):
    game = DiceRace()
    return game, game.from_text(text)


# ----- perfect information: the search converges to the minimax values -----------------------
@pytest.mark.parametrize("heaps", SMALL_NIMS)
def test_uct_root_value_and_move_match_the_exact_solve_on_nim(heaps):
    game = Nim(heaps)
    s = game.init(1)
    exact, per_action = solve(game, s)
    visits, values = MCTSAgent(sims=10_000).search(game, s, np.random.default_rng(1))
    assert per_action[visits.argmax(), 0] == exact[0]     # an optimal move
    assert values == pytest.approx(exact, abs=0.3)         # the mean of all simulations
    assert visits.sum() == 10_000


def test_uct_finds_the_only_winning_nim_move():
    game = Nim((1, 3, 4))         # 1 ^ 3 ^ 4 = 6: only taking 2 from the 4-heap leaves xor 0
    actions = MCTSAgent(sims=5000).act(game, game.init(5), np.random.default_rng(0))
    assert actions.tolist() == [2 * 4 + 1] * 5


# ----- chance nodes ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "pos=9,10 dice=3,2 to_move=0 turns_left=3 over=0",
    "pos=5,8 dice=4,6 to_move=1 turns_left=3 over=0",
    "pos=11,7 dice=1,1 to_move=1 turns_left=2 over=0",
])
def test_uct_with_dice_matches_the_expectimax_values(text):
    game, s = race(text)
    exact, per_action = solve(game, s)
    visits, values = MCTSAgent(sims=20_000).search(game, s, np.random.default_rng(2))
    mover = game.current_player(s)[0]
    best = np.nanmax(per_action[:, mover])
    assert per_action[visits.argmax(), mover] > best - 0.05
    assert values == pytest.approx(exact, abs=0.15)


def test_chance_nodes_are_sampled_with_their_probabilities():
    # red at 6 on a double 2 moves to 8 or 10; then green's last roll decides: the value of
    # red's best move is an average over green's 36 rolls, which the search must weigh right
    game, s = race("pos=6,6 dice=2,2 to_move=0 turns_left=2 over=0")
    _, per_action = solve(game, s)
    visits, _, action_values = MCTSAgent(sims=20_000).analyse(game, s, np.random.default_rng(3))
    best = visits.argmax()
    assert per_action[best, 0] == np.nanmax(per_action[:, 0])
    assert action_values[best] == pytest.approx(per_action[best], abs=0.05)


# ----- three players, turns that do not alternate, hidden cards --------------------------------
def test_each_player_is_credited_with_their_own_returns():
    game = HighCard()
    agent = MCTSAgent(sims=2000, determinizations=4)
    rng = np.random.default_rng(4)
    # seat 0 holds the top card: stay, then (a second decision in a row) stake the most
    s = game.deal([4, 0, 1])
    assert agent.act(game, s, rng)[0] == STAY
    game.step_inplace(s, [STAY])
    assert agent.act(game, s, rng)[0] == STAKE_2
    # seat 2 after the two others folded wins the antes whatever its card: it stays
    s = game.deal([3, 4, 0])
    game.step_inplace(s, [FOLD])
    game.step_inplace(s, [FOLD])
    assert agent.act(game, s, rng)[0] == STAY


def test_the_lowest_card_folds_first():
    game = HighCard()
    visits, values = MCTSAgent(sims=2000).search(game, game.deal([0, 3, 4]),
                                                 np.random.default_rng(5))
    assert visits.argmax() == FOLD
    assert values[0] == pytest.approx(-1.0, abs=0.2)       # folding loses the ante


def uniform_evaluator(num_players):
    """Uniform priors over the legal actions and no opinion on the value: PUCT then learns
    only from the rewards at the ends of the games it reaches."""
    def evaluate(obs, mask, players):
        return mask / mask.sum(1, keepdims=True), np.zeros((len(obs), num_players))
    return evaluate


def test_high_card_hides_the_other_cards_and_resamples_only_them():
    game = HighCard()
    s = game.deal([2, 0, 4])
    game.step_inplace(s, [STAY])
    for hidden in itertools.permutations([0, 1, 3, 4], 2):
        other = game.deal([2, *hidden])
        game.step_inplace(other, [STAY])
        assert np.array_equal(game.observe(other, 0), game.observe(s, 0))
    resampled = game.resample_hidden(np.repeat(s, 50), 0, np.random.default_rng(14))
    assert (resampled["cards"][:, 0] == 2).all()
    assert (resampled["cards"][:, 1] != resampled["cards"][:, 2]).all()
    assert not np.isin(resampled["cards"][:, 1:], [2]).any()
    assert len({tuple(c) for c in resampled["cards"][:, 1:]}) > 1
    for field in ("stayed", "stake", "staking", "to_move", "dealt"):
        assert (resampled[field] == s[field]).all()


@pytest.mark.parametrize("own", range(5))
@pytest.mark.parametrize("evaluator", [None, uniform_evaluator(3)], ids=["uct", "puct"])
def test_the_search_never_reads_another_players_card(own, evaluator):
    """Every deal of the others' cards gives the same visits and moves for a fixed seed."""
    game = HighCard()
    agent = MCTSAgent(sims=300, determinizations=3, temperature=1.0, evaluator=evaluator)
    others = [c for c in range(5) if c != own]
    for seed in range(3):
        seen = set()
        for hidden in itertools.permutations(others, 2):
            s = game.deal([own, *hidden])
            visits, values = agent.search(game, s, np.random.default_rng(seed))
            moves = agent.act(game, np.repeat(s, 8), np.random.default_rng(seed))
            seen.add((visits.tobytes(), values.tobytes(), moves.tobytes()))
        assert len(seen) == 1


# ----- PUCT with an evaluator -----------------------------------------------------------------
def exact_evaluator(game):
    """Priors uniform over the legal actions; values by the exact solver; records the calls."""
    def evaluate(obs, mask, players):
        evaluate.calls.append((obs.copy(), mask.copy(), players.copy()))
        values = [solve(game, Nim(tuple(o)).init(1))[0] for o in obs]
        values = np.array([v if p == 0 else v[::-1] for v, p in zip(values, players)])
        return mask / mask.sum(1, keepdims=True), values
    evaluate.calls = []
    return evaluate


def test_puct_calls_the_evaluator_on_batches_of_leaves_and_finds_the_win():
    game = Nim((1, 3, 4))
    evaluator = exact_evaluator(game)
    agent = MCTSAgent(sims=64, evaluator=evaluator, leaf_batch=8)
    visits, _, action_values = agent.analyse(game, game.init(1), np.random.default_rng(6))
    assert visits.argmax() == 2 * 4 + 1
    assert action_values[2 * 4 + 1, 0] > np.nanmax(np.delete(action_values[:, 0], 2 * 4 + 1))
    sizes = [len(obs) for obs, _, _ in evaluator.calls]
    assert sizes[0] == 1 and max(sizes) <= 8 and max(sizes) > 1
    for obs, mask, players in evaluator.calls:
        # Nim's observation is the heaps: the mask must be the moves they allow
        for o, m in zip(obs, mask):
            assert m.tolist() == [k < o[h] for h in range(3) for k in range(4)]
        assert set(players.tolist()) <= {0, 1}


def test_puct_through_chance_nodes_reaches_the_expectimax_move():
    # two turns left: the tree reaches the end of every line, so leaf values need not help
    game, s = race("pos=6,6 dice=2,2 to_move=0 turns_left=2 over=0")
    _, per_action = solve(game, s)
    agent = MCTSAgent(sims=3000, evaluator=uniform_evaluator(2), leaf_batch=8)
    visits, _, action_values = agent.analyse(game, s, np.random.default_rng(13))
    assert visits.sum() == 3000        # though the tree grew its arrays on the way
    best = visits.argmax()
    assert per_action[best, 0] == np.nanmax(per_action[:, 0])
    assert action_values[best] == pytest.approx(per_action[best], abs=0.1)


def test_puct_with_dirichlet_noise_is_deterministic_for_a_seed():
    game = Nim((2, 3, 4))
    agent = MCTSAgent(sims=50, evaluator=exact_evaluator(game), dirichlet_alpha=0.3)
    first = agent.search(game, game.init(1), np.random.default_rng(7))
    again = agent.search(game, game.init(1), np.random.default_rng(7))
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


def constant_evaluator(value):
    """Uniform priors; every leaf worth ``value`` to seat 0 and ``-value`` to seat 1."""
    def evaluate(obs, mask, players):
        return mask / mask.sum(1, keepdims=True), np.tile([value, -value], (len(obs), 1))
    return evaluate


def test_rollout_weight_blends_random_playouts_into_the_leaf_values():
    game = Nim((1, 3, 4))

    def search(value, weight):
        agent = MCTSAgent(sims=200, evaluator=constant_evaluator(value), leaf_batch=4,
                          rollout_weight=weight, rollouts=2)
        return agent.analyse(game, game.init(1), np.random.default_rng(3))

    def same(a, b):
        return all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b))

    # weight 1: the leaves are valued by their playouts alone, whatever the evaluator says
    assert same(search(0.9, 1.0), search(-0.9, 1.0))
    # weight 0 and in between, the evaluator's values count
    assert not same(search(0.9, 0.0), search(-0.9, 0.0))
    assert not same(search(0.9, 0.5), search(-0.9, 0.5))
    assert not same(search(0.9, 0.5), search(0.9, 1.0))


def test_an_evaluator_with_wrong_shapes_is_a_value_error():
    game = Nim()
    agent = MCTSAgent(sims=10, evaluator=lambda o, m, p: (m, np.zeros((len(o), 3))))
    with pytest.raises(ValueError, match="values of shape"):
        agent.search(game, game.init(1), 0)
    agent = MCTSAgent(sims=10, evaluator=lambda o, m, p: (m, np.full((len(o), 2), np.nan)))
    with pytest.raises(ValueError, match="finite values"):
        agent.search(game, game.init(1), 0)


def test_a_bad_rng_is_a_value_error():
    game = Nim()
    with pytest.raises(ValueError, match="rng must be None, an int seed"):
        MCTSAgent(sims=10).act(game, game.init(1), 1.5)


# ----- options ------------------------------------------------------------------------------
def test_a_seed_fixes_the_play_and_visits_sum_to_the_simulations():
    game, s = race("pos=3,4 dice=2,5 to_move=0 turns_left=9 over=0")
    agent = MCTSAgent(sims=500, rollouts=3)
    a = agent.search(game, s, np.random.default_rng(8))
    b = agent.search(game, s, np.random.default_rng(8))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert a[0].sum() == 500


def test_temperature_spreads_the_moves_over_the_visits():
    game = Nim((1, 3, 4))
    states = game.init(40)
    greedy = MCTSAgent(sims=5000).act(game, states, np.random.default_rng(9))
    spread = MCTSAgent(sims=5000, temperature=2.0).act(game, states, np.random.default_rng(9))
    assert set(greedy.tolist()) == {2 * 4 + 1}
    assert len(set(spread.tolist())) > 1


@pytest.mark.filterwarnings("ignore:MCTS stopped early")
def test_time_budget_and_a_small_tree_still_give_legal_moves():
    game, s = race("pos=3,4 dice=2,5 to_move=0 turns_left=20 over=0")
    timed, small = MCTSAgent(time_budget=0.05), MCTSAgent(sims=40, max_nodes=40)
    assert timed.search(game, s, 0)[0].sum() > 0
    assert 0 < small.search(game, s, 0)[0].sum() < 40      # stopped when the tree was full
    for agent in (timed, small):
        assert game.legal_mask(s)[0, agent.act(game, s, np.random.default_rng(10))[0]]
    # too small to hold the root's children: no simulation, still a legal move
    agent = MCTSAgent(sims=2, max_nodes=2)
    assert agent.search(game, s, 0)[0].sum() == 0
    assert game.legal_mask(s)[0, agent.act(game, s, np.random.default_rng(10))[0]]


@pytest.mark.parametrize("evaluator", [None, uniform_evaluator(2)], ids=["uct", "puct"])
def test_a_search_that_fills_its_tree_says_how_many_simulations_ran(evaluator):
    game = Nim((4, 4, 4))
    agent = MCTSAgent(sims=300, max_nodes=300, evaluator=evaluator, leaf_batch=4)
    with pytest.warns(RuntimeWarning, match=r"max_nodes=300 after (\d+) simulations of the "
                                            r"300 asked") as record:
        visits, _ = agent.search(game, game.init(1), 0)
    ran = int(re.search(r"after (\d+)", str(record[0].message)).group(1))
    assert 0 < ran < 300 and ran == visits.sum()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a tree large enough: no warning
        assert MCTSAgent(sims=300, evaluator=evaluator).search(game, game.init(1), 0)[0].sum() \
            == 300


def test_the_registry_builds_it_and_settings_rebuild_it():
    agent = make_agent("mcts:sims=50,c=2,temperature=0.5")
    assert agent.settings() == {"sims": 50, "c": 2.0, "temperature": 0.5}
    assert make_agent("mcts:" + ",".join(f"{k}={v}" for k, v in agent.settings().items())) \
        .settings() == agent.settings()


@pytest.mark.parametrize("options, message", [
    ({"sims": 0}, "sims"), ({"c": -1}, "c must"), ({"temperature": -0.1}, "temperature"),
    ({"dirichlet_alpha": 0.3}, "needs an evaluator"), ({"evaluator": "net"}, "callable"),
    ({"time_budget": 0}, "time_budget"), ({"determinizations": 0}, "determinizations"),
    ({"rollout_weight": 1.5}, "rollout_weight"),
    ({"temperature": float("inf")}, "temperature must be a finite number >= 0"),
    ({"temperature": float("nan")}, "temperature must be a finite number"),
    ({"c": float("inf")}, "c must be a finite number"), ({"c": "1"}, "c must be a finite"),
    ({"time_budget": float("inf")}, "time_budget must be a finite number"),
    ({"sims": True}, "sims must be an int"), ({"sims": 2.0}, "sims must be an int"),
    ({"sims": 200_000, "max_nodes": 5000}, "sims=200000 cannot fit in a tree of max_nodes=5000"),
    ({"sims": 3_000_000, "max_nodes": 1 << 20}, "cannot fit"),
])
def test_bad_options_are_value_errors(options, message):
    with pytest.raises(ValueError, match=message):
        MCTSAgent(**options)


def test_searching_a_chance_node_is_a_value_error():
    game, s = race("pos=3,4 dice=0,0 to_move=0 turns_left=9 over=0")
    with pytest.raises(ValueError, match="chance node"):
        MCTSAgent(sims=10).search(game, s, 0)
