"""Masked PPO: the masked distribution, the stored masks, exact resume, checkpoint errors,
and learning on Nim (tiny and solved: the learner should find the winning moves)."""
import copy
import threading
import time

import numpy as np
import pytest
import torch

from savanna.agents import processes
from savanna.agents.arena.matches import play_match
from savanna.agents.models.features import stack_features
from savanna.agents.models.networks import (
    MASKED_LOGIT,
    log_prob_and_entropy,
    masked_log_probs,
    sample,
)
from savanna.agents.models.ppo_checkpoint import load_checkpoint
from savanna.agents.models.ppo_config import PPOConfig, parse_shares
from savanna.agents.play.ppo_agent import PPOAgent, PPOMCTSAgent
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.training.data_parallel import GradientMean
from savanna.agents.training.ppo import Trainer, group_sizes, ppo_loss
from tests.agents.tiny_games import Nim


def tiny_config(**changes):
    settings = dict(game="nim", steps=2048, num_envs=32, rollout_len=8, minibatches=2,
                    hidden=(16,), opponents={"self": 0.5, "random": 0.5}, snapshot_every=256,
                    pool_size=3, threads=1)
    return PPOConfig(**{**settings, **changes})


# ----- the masked distribution -------------------------------------------------------------
def random_masks(rng, n, a):
    masks = rng.random((n, a)) < 0.3
    masks[np.arange(n), rng.integers(a, size=n)] = True
    masks[0] = False
    masks[0, 3] = True  # exactly one legal action
    return torch.from_numpy(masks)


def legal_actions(rng, masks):
    return torch.from_numpy(np.array([rng.choice(np.flatnonzero(row)) for row in masks.numpy()]))


def fixed_logits(n, logits):
    """A policy layer and hidden rows whose logits are ``logits`` in every row."""
    layer = torch.nn.Linear(1, len(logits))
    with torch.no_grad():
        layer.weight.zero_()
        layer.bias.copy_(torch.tensor(logits, dtype=torch.float32))
    return torch.ones(n, 1), layer


def test_masked_actions_get_probability_zero_and_entropy_stays_finite():
    rng = np.random.default_rng(0)
    masks = random_masks(rng, 64, 10)
    logits = torch.from_numpy(rng.normal(0, 30, (64, 10)).astype(np.float32))
    logits[~masks] = 1e6  # illegal actions the network loves must still get nothing
    logits.requires_grad_(True)
    log_probs = masked_log_probs(logits, masks)
    probs = log_probs.exp()
    assert (probs[~masks] == 0).all()
    assert torch.allclose(probs.sum(dim=1), torch.ones(64))
    assert probs[0, 3] == 1
    log_probs[masks].sum().backward()
    assert torch.isfinite(logits.grad).all()

    hidden, layer = fixed_logits(64, [1e6] * 5 + [0.0] * 5)
    log_prob, entropy = log_prob_and_entropy(hidden, layer, masks, legal_actions(rng, masks))
    assert torch.isfinite(entropy).all() and (entropy >= 0).all() and entropy[0] == 0
    assert torch.isfinite(log_prob).all() and log_prob[0] == 0


def test_the_fused_head_is_the_dense_layer_and_masked_softmax_values_and_gradients():
    rng = np.random.default_rng(1)
    masks = random_masks(rng, 200, 12)
    actions = legal_actions(rng, masks)
    hidden = torch.from_numpy(rng.normal(size=(200, 16)).astype(np.float32))
    layer = torch.nn.Linear(16, 12)
    weights = torch.from_numpy(rng.normal(size=(2, 200)).astype(np.float32))

    def loss_and_grads(terms):
        x = hidden.clone().requires_grad_(True)
        layer.zero_grad()
        log_prob, entropy = terms(x)
        (weights[0] @ log_prob + weights[1] @ entropy).backward()
        return log_prob, entropy, x.grad, layer.weight.grad.clone(), layer.bias.grad.clone()

    def composed(x):  # the dense layer and torch's masked log-softmax
        log_probs = masked_log_probs(layer(x), masks)
        legal_log_probs = log_probs * masks
        return (log_probs.gather(1, actions[:, None]).squeeze(1),
                -(legal_log_probs.exp() * legal_log_probs).sum(dim=1))

    expected = loss_and_grads(composed)
    got = loss_and_grads(lambda x: log_prob_and_entropy(x, layer, masks, actions))
    for a, b in zip(got, expected):
        assert torch.allclose(a, b, atol=1e-5)


def test_entropy_is_the_entropy_of_the_legal_actions_alone():
    masks = torch.tensor([[True, True, False, True]])
    hidden, layer = fixed_logits(1, [0.0, 0.0, 5.0, 0.0])
    log_prob, entropy = log_prob_and_entropy(hidden, layer, masks, torch.tensor([1]))
    assert torch.allclose(entropy, torch.tensor([np.log(3.0)], dtype=torch.float32))
    assert torch.allclose(log_prob, torch.tensor([-np.log(3.0)], dtype=torch.float32))


def test_sampling_follows_the_masked_distribution():
    masks = torch.tensor([[True, False, True, False]] * 20000 + [[False, False, False, True]])
    hidden, layer = fixed_logits(20001, [np.log(3.0), 9.0, 0.0, 9.0])
    actions, log_probs = sample(hidden, layer, masks, torch.Generator().manual_seed(0))
    actions = actions.numpy()
    assert set(actions[:-1]) <= {0, 2} and actions[-1] == 3
    assert abs((actions[:-1] == 0).mean() - 0.75) < 0.02
    with torch.no_grad():
        expected = masked_log_probs(layer(hidden), masks)
    assert torch.allclose(log_probs, expected[np.arange(20001), actions], atol=1e-6)


def test_masked_logit_is_finite():
    assert np.isfinite(MASKED_LOGIT) and MASKED_LOGIT < -1e6


# ----- the rollout buffer and the loss -----------------------------------------------------
def test_the_loss_uses_the_stored_masks():
    trainer = Trainer(tiny_config(), game=Nim())
    trainer.collect()
    buf = trainer.buffer
    assert buf.masks.any(axis=2).all(), "every stored step has a legal action"
    assert buf.masks[np.arange(8)[:, None], np.arange(32), buf.actions].all()
    size = int(np.prod(trainer.game.obs_shape))
    batch = {"features": torch.from_numpy(stack_features(buf.features, size)),
             "legal": torch.from_numpy(buf.masks.reshape(256, -1)),
             "actions": torch.from_numpy(buf.actions.reshape(-1)),
             "log_probs": torch.from_numpy(buf.log_probs.reshape(-1)),
             "values": torch.from_numpy(buf.values.reshape(-1)),
             "advantages": torch.ones(256), "returns": torch.zeros(256)}
    # with the stored masks, the loss sees exactly the distribution that sampled the actions
    _, stats = ppo_loss(trainer.net, batch, trainer.config)
    assert stats["approx_kl"] == pytest.approx(0, abs=1e-6) and stats["clip_fraction"] == 0
    # with other masks it does not: the stored ones are what the loss reads
    widened = dict(batch, legal=torch.ones_like(batch["legal"]))
    _, stats = ppo_loss(trainer.net, widened, trainer.config)
    assert stats["approx_kl"] > 1e-3


def test_gae_cuts_at_game_ends():
    trainer = Trainer(tiny_config(rollout_len=3, num_envs=2, minibatches=1), game=Nim())
    buf = trainer.buffer
    buf.rewards[:] = [[0, 0], [1, 0], [0, -1]]
    buf.dones[:] = [[False, False], [True, False], [False, True]]
    buf.values[:] = 0.5
    advantages, returns = buf.advantages(np.array([0.25, 0.25], np.float32), 1.0, 1.0)
    # env 0: the game ending at t=1 returns 1 to t=0 and t=1; t=2 bootstraps the last value
    assert np.allclose(returns[:, 0], [1.0, 1.0, 0.25])
    assert np.allclose(returns[:, 1], [-1.0, -1.0, -1.0])
    assert np.allclose(advantages, returns - 0.5)


def test_opponent_shares_split_the_games():
    assert parse_shares("self=2,random=1,greedy=1") == {"self": 0.5, "random": 0.25,
                                                        "greedy": 0.25}
    assert group_sizes({"self": 0.5, "random": 0.25, "greedy": 0.25}, 10) == {
        "self": 5, "random": 3, "greedy": 2}
    with pytest.raises(ValueError, match="unknown opponent kinds"):
        parse_shares("mcts=1")


# ----- exact resume ------------------------------------------------------------------------
@pytest.mark.parametrize("workers", [1, 2])
def test_resume_makes_the_same_updates_as_an_uninterrupted_run(tmp_path, workers):
    """With two worker processes too: the same seed and worker count, the same run."""
    config = tiny_config(steps=4 * 256, workers=workers)
    straight = Trainer(config, game=Nim())
    expected = [straight.step() for _ in range(2)]
    straight.save(tmp_path / "last.pt")  # saving changes nothing in the run
    expected += [straight.step() for _ in range(2)]
    resumed, _ = Trainer.load(tmp_path / "last.pt", game=Nim())
    again = [resumed.step() for _ in range(2)]

    assert again == expected[2:]
    for a, b in zip(straight.net.parameters(), resumed.net.parameters()):
        assert torch.equal(a, b)
    assert np.array_equal(straight.buffer.actions, resumed.buffer.actions)
    assert len(resumed.pool) == len(straight.pool) == 3
    assert expected[-1]["episodes"] > 0
    straight.close()
    if workers == 2:
        with pytest.raises(ValueError, match="written by a run of 2 workers, and this run has 1"):
            Trainer.load(tmp_path / "last.pt", game=Nim(), workers=1)
        resumed.workers.processes[0].kill()  # a worker killed outright: an error, no wait
        with pytest.raises(RuntimeError, match="PPO worker"):
            resumed.step()
    resumed.close()


def test_workers_average_their_gradients_exactly():
    """Each worker's gradient becomes the mean of all, the same bits in every worker (threads
    here, each with its own copy of the object as each process has)."""
    world, shape = 3, (5, 4)
    shared = GradientMean(2 * 20, world, processes.context())
    means = [copy.copy(shared) for _ in range(world)]
    grads = [[torch.randn(shape), torch.randn(shape)] for _ in range(world)]
    expected = [sum(g[i] for g in grads) / world for i in range(2)]
    params = []
    for g in grads:
        params.append([torch.nn.Parameter(torch.zeros(shape)) for _ in g])
        for p, gi in zip(params[-1], g):
            p.grad = gi.clone()
    for _ in range(2):  # twice: the second step uses the other table
        threads = [threading.Thread(target=means[rank].average, args=(rank, params[rank]))
                   for rank in range(world)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for rank in range(world):
            for p, first, e in zip(params[rank], params[0], expected):
                torch.testing.assert_close(p.grad, e)
                assert torch.equal(p.grad, first.grad)


@pytest.mark.parametrize("world", [2, 3, 5])
def test_no_worker_passes_the_barrier_before_every_worker_reaches_it(world):
    """Threads through 30 barriers each, in random order: whoever passes barrier ``g`` finds
    every worker arrived at ``g`` (the dissemination barrier of ``GradientMean``)."""
    shared = GradientMean(1, world, processes.context())
    arrived, errors = [-1] * world, []

    def run(rank, mean):
        pause = np.random.default_rng(rank)
        weight = torch.nn.Parameter(torch.zeros(1))
        for g in range(30):
            arrived[rank] = g
            time.sleep(pause.random() * 1e-3)
            weight.grad = torch.ones(1)
            mean.average(rank, [weight])
            if min(arrived) < g:
                errors.append((rank, g, list(arrived)))

    threads = [threading.Thread(target=run, args=(rank, copy.copy(shared)))
               for rank in range(world)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


# ----- checkpoint errors -------------------------------------------------------------------
@pytest.fixture(scope="module")
def nim_checkpoint(tmp_path_factory):
    path = tmp_path_factory.mktemp("ppo") / "nim.pt"
    Trainer(tiny_config(), game=Nim()).save(path)
    return path


def test_a_corrupt_checkpoint_gives_a_clear_error(tmp_path, nim_checkpoint):
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(nim_checkpoint.read_bytes()[:300])
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"not a checkpoint at all")
    for path, message in ((truncated, "is corrupt"), (garbage, "not a Savanna PPO checkpoint")):
        with pytest.raises(ValueError, match=message):
            load_checkpoint(path)
    with pytest.raises(ValueError, match="no PPO checkpoint"):
        load_checkpoint(tmp_path / "missing.pt")


def test_a_foreign_checkpoint_gives_a_clear_error(tmp_path, nim_checkpoint):
    foreign = tmp_path / "foreign.pt"
    torch.save({"state_dict": {"w": torch.zeros(2)}}, foreign)
    with pytest.raises(ValueError, match="not a Savanna PPO checkpoint"):
        load_checkpoint(foreign)
    other_game = Nim()
    other_game.name = "nim-variant"
    with pytest.raises(ValueError, match="trained on nim"):
        load_checkpoint(nim_checkpoint, other_game)
    with pytest.raises(ValueError, match="trained on nim"):
        PPOAgent(str(nim_checkpoint)).act(other_game, other_game.init(1),
                                          np.random.default_rng(0))


# ----- the agent and the evaluator ---------------------------------------------------------
def test_the_agent_plays_legal_moves_and_replays_with_its_seed(nim_checkpoint):
    game = Nim()
    states = game.init(5)
    for sampling in (False, True):
        agent = PPOAgent(str(nim_checkpoint), sample=sampling)
        actions = agent.act(game, states, np.random.default_rng(1))
        assert game.legal_mask(states)[np.arange(5), actions].all()
        assert np.array_equal(actions, agent.act(game, states, np.random.default_rng(1)))


def test_the_evaluator_gives_masked_priors_and_seat_values(nim_checkpoint):
    game = Nim()
    states = game.init(3)
    game.step_inplace(states[1:2], [0])  # player 1 to move in state 1
    players = game.current_player(states).astype(np.int64)
    mask = game.legal_mask(states)
    agent = PPOAgent(str(nim_checkpoint))
    priors, values = agent.evaluator(game)(game.observe(states, players), mask, players)
    assert np.allclose(priors.sum(axis=1), 1) and (priors[~mask] == 0).all()
    _, v = agent.policy(game, game.observe(states, players), mask)
    assert np.allclose(values[np.arange(3), players], v)
    assert np.allclose(values.sum(axis=1), 0)


# ----- learning ----------------------------------------------------------------------------
def test_ppo_learns_to_beat_random_at_nim():
    game = Nim()
    config = tiny_config(steps=200 * 1024, num_envs=128, rollout_len=8, hidden=(32, 32),
                         minibatches=2, epochs=4, lr=3e-3, opponents={"random": 1.0})
    trainer = Trainer(config, game=game)
    while trainer.global_step < config.steps:
        trainer.step()
    agent = PPOAgent.from_network(trainer.net, game)
    result = play_match(game, [agent, RandomAgent()], games=200, seed=0, workers=1,
                        progress=False)
    assert result.summary()[0]["win_rate"] > 0.75


@pytest.mark.slow  # compiling the search for Nim takes ~30 s on a busy machine
def test_ppo_guides_mcts_as_its_prior_and_value(nim_checkpoint):
    game = Nim()
    states = game.init(3)
    agent = PPOMCTSAgent(str(nim_checkpoint), sims=32, leaf_batch=4)
    actions = agent.act(game, states, np.random.default_rng(0))
    assert game.legal_mask(states)[np.arange(3), actions].all()
    assert np.array_equal(actions, agent.act(game, states, np.random.default_rng(0)))
    assert agent.settings()["checkpoint"] == str(nim_checkpoint)


def test_greedy_opponents_need_game_scores():
    with pytest.raises(ValueError, match="need game scores"):
        Trainer(tiny_config(opponents={"greedy": 1.0}), game=Nim())


def test_sample_must_be_a_bool(nim_checkpoint):
    with pytest.raises(ValueError, match="sample must be True or False, got 'no'"):
        PPOAgent(str(nim_checkpoint), sample="no")
