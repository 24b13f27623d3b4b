"""AlphaZero (savanna.agents.training.alphazero): the Gumbel search against exact values on the tiny
games,
chance and three players, determinization, training, exact resume, checkpoints and agents."""
import os

import numpy as np
import pytest
import torch

from savanna.agents.models.az_checkpoint import load_checkpoint, save_checkpoint
from savanna.agents.models.az_config import AZConfig
from savanna.agents.models.inference import network_evaluator
from savanna.agents.models.networks import AZNet
from savanna.agents.play.az_agent import AZAgent, baseline_path, shipped_baselines
from savanna.agents.play.exact import solve
from savanna.agents.play.gumbel import GumbelSearch, considered_visits
from savanna.agents.play.registry import make_agent
from savanna.agents.training.alphazero import SelfPlay, Trainer, Trajectories
from savanna.game import CHANCE
from tests.agents.tiny_games import DiceRace, HighCard, Nim


def nim_evaluator(obs, mask):
    """Exact Nim values for the player to move (whoever empties the heaps wins: the mover
    wins iff the heaps xor to non-zero), uniform priors."""
    heaps = obs.astype(np.int64)
    wins = (heaps[:, 0] ^ heaps[:, 1] ^ heaps[:, 2]) != 0
    v = np.where(wins, 1.0, -1.0).astype(np.float32)
    return mask / mask.sum(axis=1, keepdims=True), np.stack([v, -v], axis=1)


def race_evaluator(obs, mask):
    """Exact DiceRace values (the solver's) of the player-relative positions in ``obs``."""
    game = DiceRace()
    values = np.empty((len(obs), 2), np.float32)
    for j, o in enumerate(obs):
        s = game.from_text(f"pos={o[0]},{o[1]} dice={o[2]},{o[3]} to_move=0 "
                           f"turns_left={o[4]} over=0")
        values[j] = solve(game, s)[0]
    return mask / mask.sum(axis=1, keepdims=True), values


def uniform_evaluator(num_players):
    def evaluate(obs, mask):
        return mask / mask.sum(axis=1, keepdims=True), np.zeros((len(obs), num_players))
    return evaluate


class OpenHighCard(HighCard):
    """HighCard with the cards in view of the search (no determinization), to compare its
    values with the exact solver's on the same deal."""

    perfect_information = True


# ----- sequential halving ----------------------------------------------------------------------
def test_considered_visits_match_mctx_sequential_halving():
    table = considered_visits(4, 10)
    # 4 actions, log2(4) = 2 phases: 10 / (2 * 4) -> 1 visit each, then the best 2 get the rest
    assert table[4].tolist() == [0, 0, 0, 0, 1, 1, 2, 2, 3, 3]
    assert table[1].tolist() == list(range(10))
    assert table[2].tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


# ----- the root with exact values --------------------------------------------------------------
@pytest.mark.parametrize("heaps", [(1, 3, 4), (2, 3, 4), (1, 2, 4), (3, 3, 1)])
def test_gumbel_root_with_exact_values_picks_a_winning_move(heaps):
    game = Nim(heaps)
    _, per_action = solve(game, game.init(1))
    states = game.init(16)
    # sigma(q) separates a win from a loss by (50 + max visits) * 0.1: with 256 simulations
    # over 8-12 actions that is about 10, which the Gumbel noise does not overturn
    result = GumbelSearch(game, sims=256).run(states, nim_evaluator, np.random.default_rng(0))
    assert (per_action[result.actions, 0] == 1.0).all()
    winning = per_action[:, 0] == 1.0
    assert (result.policy[:, winning].sum(axis=1) > 0.95).all()   # the improved policy too
    assert np.allclose(result.policy.sum(axis=1), 1.0)
    assert (result.policy[:, ~game.legal_mask(states)[0]] == 0).all()


def test_without_search_values_the_moves_follow_the_gumbel_top_k_of_the_prior():
    game = Nim((4, 4, 4))
    result = GumbelSearch(game, sims=1).run(game.init(200), uniform_evaluator(2),
                                            np.random.default_rng(1))
    counts = np.bincount(result.actions, minlength=12)
    assert (counts > 0).all() and counts.max() < 40   # one simulation: a uniform draw


@pytest.mark.parametrize("weight", [0.0, 0.5, 1.0])
def test_a_leafs_value_mixes_the_network_and_a_playout_from_the_movers_seat(weight):
    """Nim (0, 0, 2), two simulations (one per move): taking one stone leaves the opponent
    the last one, so a playout from there returns -1 to the mover; the evaluator says 0."""
    game = Nim((0, 0, 2))
    search = GumbelSearch(game, sims=2, rollout_weight=weight)
    search.run(game.init(1), uniform_evaluator(2), np.random.default_rng(0))
    take_one, take_two = (game.action_names.index(f"take {k} from 2") for k in (1, 2))
    values = search.action_values(0)
    assert values[take_one] == pytest.approx([-weight, weight])
    assert values[take_two] == pytest.approx([1, -1])   # the game's end: no playout


@pytest.mark.parametrize("value_range, sharp", [(0.0, True), (2.0, False)])
def test_a_fixed_value_range_keeps_small_q_differences_small(value_range, sharp):
    """Children a few hundredths apart: the min-max rescaling stretches that to the full
    sigma (a sharp target), a fixed span of 2 (returns in [-1, 1]) keeps it near the prior."""
    game = Nim((0, 3, 3))

    def close_values(obs, mask):
        v = 0.01 * obs.sum(axis=1).astype(np.float32)
        return mask / mask.sum(axis=1, keepdims=True), np.stack([v, -v], axis=1)

    result = GumbelSearch(game, sims=6, value_range=value_range).run(
        game.init(1), close_values, np.random.default_rng(0))
    assert (result.policy.max() > 0.4) if sharp else (result.policy.max() < 0.2)


# ----- chance nodes and three players: per-player values backed up ----------------------------
def test_chance_nodes_back_up_the_expected_values():
    game = DiceRace()
    s = game.from_text("pos=6,6 dice=2,2 to_move=0 turns_left=2 over=0")
    _, per_action = solve(game, s)
    search = GumbelSearch(game, sims=3000)
    search.run(s, race_evaluator, np.random.default_rng(2))
    values = search.action_values(0)
    legal = game.legal_mask(s)[0]
    assert values[legal] == pytest.approx(per_action[legal], abs=0.08)


def test_chance_expansion_gives_the_exact_expectation():
    """Player 0 moves, two dice are rolled (36 outcomes), player 1's positions are leaves
    valued exactly: 72 simulations visit each leaf of both moves once when the dice follow
    their probabilities, and the backed-up values are then the exact expectations; sampled
    dice visit some leaves twice and miss others."""
    game = DiceRace()
    s = game.from_text("pos=6,6 dice=2,2 to_move=0 turns_left=2 over=0")
    _, per_action = solve(game, s)
    legal = game.legal_mask(s)[0]
    errors = {}
    for expect in (True, False):
        search = GumbelSearch(game, sims=72, gumbel_scale=0.0, expect_chance=expect)
        search.run(s, race_evaluator, np.random.default_rng(2))
        errors[expect] = np.abs(search.action_values(0)[legal] - per_action[legal]).max()
    assert errors[True] < 1e-5
    assert errors[False] > 0.01


@pytest.mark.parametrize("cards", [(4, 1, 2), (0, 3, 2), (2, 4, 3)])
def test_three_player_trees_back_up_each_seats_values(cards):
    game = OpenHighCard()
    s = game.deal(cards)
    _, per_action = solve(game, s)
    search = GumbelSearch(game, sims=2000)
    search.run(s, uniform_evaluator(3), np.random.default_rng(3))
    values = search.action_values(0)
    legal = game.legal_mask(s)[0]
    assert values[legal] == pytest.approx(per_action[legal], abs=0.15)


# ----- hidden information ----------------------------------------------------------------------
@pytest.mark.parametrize("trees", [1, 4])
def test_determinized_search_leaks_no_hidden_card(trees):
    game = HighCard()
    torch.manual_seed(0)
    evaluate = network_evaluator(AZNet.for_game(game, (16,)).eval())
    results = []
    for others in [(0, 1), (4, 3), (1, 3)]:  # seat 0 holds card 2 each time
        s = game.deal([2, *others])
        result = GumbelSearch(game, sims=32, determinizations=trees).run(
            np.repeat(s, 8), evaluate, np.random.default_rng(4))
        results.append(result)
    for other in results[1:]:
        assert np.array_equal(other.actions, results[0].actions)
        assert np.array_equal(other.policy, results[0].policy)


def test_several_determinizations_average_the_policies_of_their_trees():
    """``determinizations=3`` with 3k simulations is three trees of k from three draws of
    the hidden cards: the policy and values are their means, the move the mean's best."""
    game = HighCard()
    torch.manual_seed(1)
    evaluate = network_evaluator(AZNet.for_game(game, (16,)).eval())
    states = np.concatenate([game.deal([2, 0, 1]), game.deal([4, 1, 3])])
    joint = GumbelSearch(game, sims=24, determinizations=3, gumbel_scale=1.0).run(
        states, evaluate, np.random.default_rng(5))
    trees = GumbelSearch(game, sims=8, gumbel_scale=1.0).run(
        np.repeat(states, 3), evaluate, np.random.default_rng(5))
    assert len(set(map(bytes, trees.policy))) > 2  # the draws differ
    mean = trees.policy.reshape(2, 3, -1).mean(axis=1)
    assert np.array_equal(joint.policy, mean)
    assert np.array_equal(joint.values, trees.values.reshape(2, 3, -1).mean(axis=1))
    assert np.array_equal(joint.actions, mean.argmax(axis=1))
    assert game.legal_mask(states)[np.arange(2), joint.actions].all()


# ----- training --------------------------------------------------------------------------------
TINY = {"game": "nim", "games": 32, "sims": 16, "hidden": (32, 32), "batch_size": 64,
        "replay_window": 4096, "reuse": 8.0, "lr": 3e-3}


@pytest.mark.parametrize("sizes", [(3, 2), (5, 7, 1, 9), (20,), (8, 8, 3)])
def test_the_replay_window_keeps_the_newest_positions_in_order(sizes):
    """Batches larger than the window, or wrapping its end, leave exactly the last
    ``replay_window`` positions, the oldest at the cursor."""
    game = Nim((2, 3, 4))
    window = 8
    learner = Trainer(AZConfig(**{**TINY, "replay_window": window, "batch_size": 4}),
                      game).learner
    added = np.arange(sum(sizes))
    start = 0
    for m in sizes:
        ids = added[start:start + m]
        learner.add(Trajectories(np.repeat(ids[:, None], learner.replay.obs.shape[1], 1)
                                 .astype(np.uint8),
                                 np.ones((m, game.num_actions), np.bool_),
                                 np.zeros((m, game.num_actions), np.float32),
                                 np.repeat(ids[:, None], game.num_players, 1)
                                 .astype(np.float32)))
        start += m
    newest = added[-window:]
    assert learner.size == min(window, len(added))
    in_order = np.roll(learner.replay.value[:learner.size, 0], -learner.cursor
                       if learner.size == window else 0)
    assert np.array_equal(in_order, newest[-learner.size:])
    assert np.array_equal(learner.replay.obs[:learner.size, 0], learner.replay.value[
        :learner.size, 0])


def test_training_on_nim_reaches_the_exact_values():
    game = Nim((2, 3, 4))
    trainer = Trainer(AZConfig(**TINY), game)
    for _ in range(400):
        trainer.step()
    s = game.init(1)
    exact, per_action = solve(game, s)
    priors, values = network_evaluator(trainer.learner.net.eval())(
        game.observe(s, 0).reshape(1, -1), game.legal_mask(s))
    assert values[0] == pytest.approx(exact, abs=0.35)
    assert per_action[priors[0].argmax(), 0] == exact[0]   # the one winning move


def test_the_learner_takes_the_steps_owed_spread_over_the_moves():
    """Every position is owed ``reuse / batch_size`` steps: those not taken yet are the credit,
    and no move takes more than a quarter above the mean owed per move so far, although the
    32 games, started together, end together."""
    config = AZConfig(**TINY)
    trainer = Trainer(config, Nim((2, 3, 4)))
    carried = False
    for _ in range(40):
        before = trainer.learner.steps
        trainer.step()
        mean = config.reuse * trainer.positions / (trainer.moves * config.batch_size)
        assert trainer.learner.steps - before <= np.ceil(1.25 * mean)
        carried |= trainer.credit >= 1
        assert trainer.learner.steps + trainer.credit == pytest.approx(
            config.reuse * trainer.positions / config.batch_size)
    assert carried and trainer.learner.steps > 0


@pytest.mark.parametrize("processes", [0, 2])
def test_resume_is_exact_with_the_replay_window(tmp_path, processes):
    """Also with self-play in two processes of its own, a move ahead of the learner."""
    game = Nim((2, 3, 4))
    config = AZConfig(**{**TINY, "games": 8, "batch_size": 16, "save_replay": True,
                         "selfplay_processes": processes})
    straight = Trainer(config, game)
    for _ in range(15):
        straight.step()
    save_checkpoint(straight.checkpoint(), tmp_path / "last.pt")  # changes nothing in the run
    metrics = [straight.step() for _ in range(15)]
    resumed, _ = Trainer.from_checkpoint(load_checkpoint(tmp_path / "last.pt", game), game)
    assert [resumed.step() for _ in range(15)] == metrics
    assert resumed.counters() == straight.counters()
    assert straight.learner.steps > 0
    for key, value in straight.learner.net.state_dict().items():
        assert torch.equal(value, resumed.learner.net.state_dict()[key]), key
    if processes:
        states = [t.selfplay.state_dict()["processes"] for t in (straight, resumed)]
        for a, b in zip(*states):
            assert torch.equal(a["selfplay"]["states"], b["selfplay"]["states"])
        straight.close()
        resumed.close()
    else:
        assert np.array_equal(straight.selfplay.states, resumed.selfplay.states)


def test_selfplay_processes_settings_are_checked_before_any_process_starts():
    with pytest.raises(ValueError, match=r"games \(8\) must be divisible by selfplay_processes"):
        AZConfig(**{**TINY, "games": 8, "selfplay_processes": 3})
    with pytest.raises(ValueError, match="does not go with another self-play"):
        Trainer(AZConfig(**{**TINY, "selfplay_processes": 2}), Nim((2, 3, 4)), SelfPlay)


def test_a_checkpoint_without_the_replay_window_resumes_with_an_empty_one():
    game = Nim((2, 3, 4))
    trainer = Trainer(AZConfig(**{**TINY, "games": 8, "batch_size": 16}), game)
    for _ in range(15):
        trainer.step()
    assert trainer.learner.size > 0
    data = trainer.checkpoint()
    assert data["trainer"]["learner"]["replay"] is None
    resumed, _ = Trainer.from_checkpoint(data, game)
    assert resumed.learner.size == 0 and resumed.learner.steps == trainer.learner.steps
    for key, value in trainer.learner.net.state_dict().items():
        assert torch.equal(value, resumed.learner.net.state_dict()[key]), key
    assert np.array_equal(trainer.selfplay.states, resumed.selfplay.states)
    resumed.step()


# ----- checkpoints and agents ------------------------------------------------------------------
@pytest.fixture(scope="module")
def nim_checkpoint(tmp_path_factory):
    game = Nim((2, 3, 4))
    trainer = Trainer(AZConfig(**{**TINY, "games": 8}), game)
    for _ in range(5):
        trainer.step()
    path = tmp_path_factory.mktemp("az") / "best.pt"
    save_checkpoint(trainer.checkpoint(full=False), path)
    return path


@pytest.mark.parametrize("content", [b"", b"not a checkpoint", None])
def test_a_bad_checkpoint_is_a_one_line_error(tmp_path, content):
    path = tmp_path / "bad.pt"
    if content is None:
        torch.save({"format": "savanna-ppo", "version": 1}, path)  # another kind of file
    else:
        path.write_bytes(content)
    for spec in (f"az:{path}", f"az-policy:{path}"):
        with pytest.raises(ValueError) as err:
            make_agent(spec)
        assert "\n" not in str(err.value) and "checkpoint" in str(err.value)


def test_a_missing_or_foreign_game_checkpoint_is_a_one_line_error(tmp_path, nim_checkpoint):
    with pytest.raises(ValueError, match="no AlphaZero checkpoint"):
        make_agent(f"az:{tmp_path / 'missing.pt'}")
    with pytest.raises(ValueError, match="trained on nim") as err:
        make_agent(f"az-policy:{nim_checkpoint}").act(DiceRace(), DiceRace().from_text(
            "pos=0,0 dice=1,2 to_move=0 turns_left=4 over=0"), np.random.default_rng(0))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("spec", ["az:{},sims=8", "az-policy:{}"])
def test_agents_play_legal_moves(nim_checkpoint, spec):
    game = Nim((2, 3, 4))
    agent = make_agent(spec.format(nim_checkpoint))
    states = game.init(6)
    for _ in range(3):
        states = states[game.current_player(states) >= 0]
        if not len(states):
            break
        actions = agent.act(game, states, np.random.default_rng(5))
        assert game.legal_mask(states)[np.arange(len(states)), actions].all()
        states, _ = game.step(states, actions)


def test_the_agent_searches_as_its_network_was_trained(tmp_path):
    game = Nim((2, 3, 4))
    trainer = Trainer(AZConfig(**{**TINY, "games": 2, "value_scale": 0.05,
                                  "value_range": 2.0, "rollout_weight": 0.3}), game)
    path = tmp_path / "mixed.pt"
    save_checkpoint(trainer.checkpoint(full=False), path)
    search = make_agent(f"az:{path},sims=8").new_search(game)
    assert (search.value_scale, search.value_range, search.rollout_weight, search.sims) == (
        0.05, 2.0, 0.3, 8)
    assert make_agent(f"az:{path},rollout_weight=0").new_search(game).rollout_weight == 0


def test_the_agent_determinizes_as_its_network_says_where_cards_are_hidden(tmp_path):
    path = tmp_path / "cards.pt"
    trainer = Trainer(AZConfig(**{**TINY, "games": 2, "determinizations": 4}), HighCard())
    save_checkpoint(trainer.checkpoint(full=False), path)
    search = make_agent(f"az:{path},sims=8").new_search(HighCard())
    assert (search.trees, search.sims) == (4, 2)
    assert make_agent(f"az:{path},determinizations=2").new_search(HighCard()).trees == 2
    # the same network where the cards are in view: one tree of all the simulations
    search = make_agent(f"az:{path},sims=8").new_search(OpenHighCard())
    assert (search.trees, search.sims) == (1, 8)


@pytest.mark.parametrize("name", shipped_baselines())
def test_each_shipped_baseline_loads_and_plays_legal_moves(name):
    from savanna import make_game

    game_name, players = name.removesuffix("p.pt").rsplit("-", 1)
    game = make_game(game_name)
    if game.num_players != int(players):
        game = make_game(game_name, num_players=int(players))
    assert os.path.getsize(baseline_path(game)) <= 2_000_000
    rng = np.random.default_rng(0)
    states = game.init(4, rng)
    for spec in ("az:baseline,sims=8", "az-policy:baseline"):
        agent = make_agent(spec)
        for _ in range(3):
            while (game.current_player(states) == CHANCE).any():
                chance = game.current_player(states) == CHANCE
                drawn = states[chance]
                game.apply_chance(drawn, game.sample_chance(drawn, rng))
                states[chance] = drawn
            states = states[game.current_player(states) >= 0]
            actions = agent.act(game, states, rng)
            assert game.legal_mask(states)[np.arange(len(states)), actions].all()
            states, _ = game.step(states, actions)


def test_a_baseline_is_shipped_for_every_game_and_player_count():
    expected = {"zebres-2p.pt"} | {f"bonobo-{p}p.pt" for p in range(2, 5)} | {
        f"banjooli-{p}p.pt" for p in range(2, 6)}
    assert set(shipped_baselines()) == expected


def test_a_game_without_a_baseline_says_which_exist():
    agent = make_agent("az:baseline")
    game = Nim()
    with pytest.raises(ValueError, match="no AlphaZero baseline for nim with 2 players; "
                                         "shipped: ") as err:
        agent.act(game, game.init(1, np.random.default_rng(0)), np.random.default_rng(0))
    assert "\n" not in str(err.value)


def test_fused_priors_equal_the_dense_masked_softmax():
    from savanna.agents.models.networks import masked_log_probs, probabilities

    torch.manual_seed(1)
    layer = torch.nn.Linear(8, 12)
    hidden = torch.randn(5, 8)
    legal = np.random.default_rng(0).random((5, 12)) < 0.4
    legal[:, 3] = True
    dense = masked_log_probs(layer(hidden), torch.from_numpy(legal)).exp().detach().numpy()
    assert probabilities(hidden, layer, legal) == pytest.approx(dense, abs=1e-6)
    assert (probabilities(hidden, layer, legal)[~legal] == 0).all()


def test_fused_policy_loss_is_the_dense_cross_entropy_values_and_gradients():
    from savanna.agents.models.networks import cross_entropy, masked_log_probs

    rng = np.random.default_rng(2)
    layer = torch.nn.Linear(8, 12)
    legal = rng.random((6, 12)) < 0.4
    legal[:, 5] = True
    target = np.where(legal, rng.random((6, 12)), 0).astype(np.float32)
    target /= target.sum(axis=1, keepdims=True)
    upstream = torch.from_numpy(rng.normal(size=6).astype(np.float32))
    start = rng.normal(size=(6, 8)).astype(np.float32)
    results = []
    for fused in (False, True):
        hidden = torch.tensor(start, requires_grad=True)
        layer.zero_grad()
        legal_t, target_t = torch.from_numpy(legal), torch.from_numpy(target)
        loss = (cross_entropy(hidden, layer, legal_t, target_t) if fused else
                -(target_t * masked_log_probs(layer(hidden), legal_t)).sum(dim=1))
        (loss * upstream).sum().backward()
        results.append((loss.detach(), hidden.grad, layer.weight.grad.clone(),
                        layer.bias.grad.clone()))
    for dense, fused in zip(*results):
        assert torch.allclose(dense, fused, atol=1e-5)


def test_the_search_evaluator_is_the_network():
    game = HighCard()
    net = AZNet.for_game(game, (16, 8)).eval()
    states = game.init(6, np.random.default_rng(0))
    obs = game.observe(states, np.zeros(6, np.int64)).reshape(6, -1)
    mask = np.ones((6, game.num_actions), np.bool_)
    priors, values = network_evaluator(net)(obs, mask)
    with torch.no_grad():
        logits, expected = net(obs)
    assert values == pytest.approx(expected.numpy(), abs=1e-6)
    assert priors == pytest.approx(torch.softmax(logits, dim=1).numpy(), abs=1e-6)


def test_a_run_killed_after_a_checkpoint_evaluates_each_move_once(tmp_path, monkeypatch):
    """An evaluation due with a checkpoint runs before it is saved: a run killed after the
    checkpoint and resumed from it does not evaluate (and log) the same move again."""
    from savanna.cli.train_az import run_training

    game = Nim((2, 3, 4))
    config = AZConfig(**{**TINY, "games": 8, "batch_size": 16, "eval_games": 2, "eval_sims": 2,
                         "ladder": ("random",), "eval_minutes": 1e-9,
                         "checkpoint_minutes": 1e-9})
    step, calls = Trainer.step, []

    def killed_at_the_third_step(trainer):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # the process dies between two checkpoints
        return step(trainer)

    monkeypatch.setattr(Trainer, "step", killed_at_the_third_step)
    with pytest.raises(KeyboardInterrupt):
        run_training(config, runs_dir=tmp_path, game=game, write=lambda m: None)
    monkeypatch.setattr(Trainer, "step", step)
    folder = next(tmp_path.iterdir())
    run_training(AZConfig(**{**TINY, "minutes": 0.005}), resume=folder, game=game,
                 write=lambda m: None)
    steps = [line.split(",")[0] for line in (folder / "eval.csv").read_text().splitlines()[1:]]
    assert len(steps) > 3 and len(steps) == len(set(steps)), ", ".join(steps)


def test_a_run_folder_stops_and_resumes(tmp_path):
    from savanna.cli.train_az import run_training

    game = Nim((2, 3, 4))
    config = AZConfig(**{**TINY, "games": 8, "batch_size": 16, "log_every": 2, "eval_games": 4,
                         "eval_sims": 4, "ladder": ("mcts:sims=10",)})
    messages = []
    folder = run_training(config, runs_dir=tmp_path, game=game, write=messages.append,
                          stop_after=4)
    assert any(f"--resume {folder}" in m for m in messages)
    run_training(AZConfig(**{**TINY, "minutes": 0.02}), resume=folder, game=game,
                 write=messages.append)
    for name in ("config.json", "metrics.csv", "eval.csv", "last.pt", "best.pt"):
        assert (folder / name).is_file(), name
    header = (folder / "metrics.csv").read_text().splitlines()[0].split(",")
    assert {"policy_loss", "value_loss", "policy_kl"} <= set(header)
    assert any("resuming" in m and "move 4" in m for m in messages)


def test_a_time_budget_spends_what_the_measured_rounds_cost():
    """Rounds measured at 1 ms + 0.1 ms per state: each call gets the most simulations
    whose rounds fit the budget times its states, to within one of 8 steps per doubling."""
    agent = AZAgent("baseline", time_budget=0.01)
    assert agent._budgeted_sims(10) == 8  # nothing measured yet
    agent._round_seconds.extend((n, 1e-3 + 1e-4 * n) for n in (4, 16, 64, 16))
    for states in (1, 10, 100):
        fits = 0.01 * states / (1e-3 + 1e-4 * states)
        assert int(fits / 2 ** (1 / 8)) <= agent._budgeted_sims(states) <= fits


def test_a_timed_agent_keeps_few_searches():
    from savanna import make_game
    game = make_game("zebres")
    agent = AZAgent("baseline", time_budget=1e-4)
    rng = np.random.default_rng(0)
    for n in (1, 3, 9, 27, 2, 5):
        assert agent.act(game, game.init(n, rng=n), rng).shape == (n,)
    assert 1 <= len(agent._searches) <= 4
