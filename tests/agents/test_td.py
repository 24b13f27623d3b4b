"""TD(lambda) self-play and the TD player: the compiled value network and learning step against
naive twins, the expectimax against one written with the game's API, learning pinned on a
dice race, a killed run resumed exactly, and the agents made from their specs."""
import numpy as np
import pytest
import torch

from savanna.agents.arena.matches import play_match
from savanna.agents.models.td_config import TDConfig
from savanna.agents.models.td_value import new_net, new_work, observed_value, train_toward
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.play.registry import make_agent
from savanna.agents.play.td_agent import TDAgent
from savanna.agents.training._td_learn import learn_game
from savanna.agents.training.td import Trainer
from savanna.cli.run_folders import read_csv
from savanna.cli.train_td import run_training
from savanna.game import CHANCE, TERMINAL
from savanna.registry import make_game
from tests.agents.race_game import HotRace


def torch_value(net, obs):
    """The network's value, written with torch (the twin of ``td_value``), and its graph."""
    w1, b1, w2, b2 = (torch.tensor(w, dtype=torch.float64, requires_grad=True) for w in net)
    x = torch.tensor(obs, dtype=torch.float64)
    y = torch.tanh(b2[0] + torch.relu(x @ w1 + b1) @ w2)
    return y, (w1, b1, w2, b2)


def test_the_value_and_its_step_match_torch():
    rng = np.random.default_rng(0)
    net = new_net(40, 16, rng)
    obs = (rng.random(40) < 0.3).astype(np.uint8) * rng.integers(1, 4, 40).astype(np.uint8)
    y, params = torch_value(net, obs)
    assert observed_value(net, obs, new_work(net)) == pytest.approx(y.item(), abs=1e-6)
    y.backward()
    before = [w.copy() for w in net]
    train_toward(net, obs, new_work(net), target=0.5, step=0.01)
    for w0, w1, p in zip(before, net, params):
        # squared error's gradient step: w += step * (target - y) * dy/dw
        expected = w0 + 0.01 * (0.5 - y.item()) * p.grad.numpy()
        np.testing.assert_allclose(w1, expected, atol=1e-6)


@pytest.mark.parametrize("ends_on_a_choice", [True, False])
def test_the_learning_step_moves_toward_the_lambda_returns(ends_on_a_choice):
    """A naive twin: lambda-returns from their sum form, (1 - lam) sum lam^(n-1) G^(n) plus
    lam^(T-1-t) times the full return, each record stepped in the same (backward) order.
    ``ends_on_a_choice``: the last record is the end (else forced moves end the game later,
    paying more)."""
    rng = np.random.default_rng(1)
    records, players, size, lam, step = 7, 2, 30, 0.6, 0.05
    obs_log = (rng.random((records, players, size)) < 0.3).astype(np.uint8)
    cum_log = np.cumsum(rng.normal(0, 0.1, (records, players)), axis=0).astype(np.float32)
    end_log = np.zeros(records, np.bool_)
    end_log[-1] = ends_on_a_choice
    total = cum_log[-1] + (0 if ends_on_a_choice else rng.normal(0, 0.3, players))
    total = total.astype(np.float32)
    net = new_net(size, 8, rng)
    twin = tuple(w.copy() for w in net)
    work = new_work(net)
    values = np.array([[0.0 if end_log[t] else observed_value(net, obs_log[t, q], work)
                        for q in range(players)] for t in range(records)])
    learn_game(net, work, obs_log, cum_log, end_log, total, records, lam, step)
    for t in range(records - 1 - ends_on_a_choice, -1, -1):
        for q in range(players):
            target = lam ** (records - 1 - t) * (total[q] - cum_log[t, q])
            for n in range(1, records - t):
                target += (1 - lam) * lam ** (n - 1) * (
                    cum_log[t + n, q] - cum_log[t, q] + values[t + n, q])
            train_toward(twin, obs_log[t, q], work, target, step)
    for a, b in zip(net, twin):
        np.testing.assert_allclose(a, b, atol=1e-6)


def naive_values(game, net, s, ply):
    """Action values of decision node ``s`` at ply 0 or 1, written with the game's API."""
    work = new_work(net)

    def f0(x, seat):
        if game.current_player(x)[0] == TERMINAL:
            return 0.0
        return observed_value(net, game.observe(x, seat)[0].ravel(), work)

    def reply0(y, seat):
        q = int(game.current_player(y)[0])
        if q == TERMINAL:
            return 0.0
        best = None
        for a in np.flatnonzero(game.legal_mask(y)[0]):
            after, r = game.step(y, [a])
            v = r[0, q] + f0(after, q)
            if best is None or v > best[0]:
                best = (v, r[0, seat] + f0(after, seat))
        return best[1]

    def f1(x, seat):
        player = game.current_player(x)[0]
        if player == TERMINAL:
            return 0.0
        if player != CHANCE:
            return reply0(x, seat)
        probs = game.chance_probs(x)[0]
        total = 0.0
        for o in np.flatnonzero(probs):
            child = x.copy()
            game.apply_chance(child, [o])
            assert game.current_player(child)[0] != CHANCE  # a single chance node
            total += probs[o] * reply0(child, seat)
        return total

    player = int(game.current_player(s)[0])
    out = np.full(game.num_actions, -np.inf)
    for a in np.flatnonzero(game.legal_mask(s)[0]):
        after, r = game.step(s, [a])
        out[a] = r[0, player] + (f0(after, player) if ply == 0 else f1(after, player))
    return out


def resolve_chance(game, s, rng):
    while game.current_player(s)[0] == CHANCE:
        probs = game.chance_probs(s)[0]
        game.apply_chance(s, [rng.choice(len(probs), p=probs)])


@pytest.mark.parametrize("ply", [0, 1])
def test_the_expectimax_matches_one_written_with_the_game_api(ply):
    """Bonobo Beach: drawing a tile is one chance node, then the drawer places it."""
    game = make_game("bonobo", num_players=2)
    net = new_net(int(np.prod(game.obs_shape)), 8, 2)
    agent = TDAgent.from_net(net, game, ply=ply)
    s = game.init(1, 3)
    rng = np.random.default_rng(3)
    for _ in range(6):  # a few moves in, so that tiles lie on the board
        resolve_chance(game, s, rng)
        s, _ = game.step(s, RandomAgent().act(game, s, rng))
    resolve_chance(game, s, rng)
    from savanna.agents.play import _td_kernels
    from savanna.agents.play.td_agent import buffers

    out = np.empty(game.num_actions)
    game.compiled(_td_kernels).action_values(s, 0, ply, 1, net, np.zeros(net[0].shape[0],
                                             np.uint8), new_work(net), buffers(game, 1), out)
    np.testing.assert_allclose(out, naive_values(game, net, s, ply), atol=1e-9)
    assert agent.act(game, s, 0)[0] in np.flatnonzero(game.legal_mask(s)[0])


# ----- learning and runs -----------------------------------------------------------------------
def score(game, agent, opponent, games=1000):
    return play_match(game, [agent, opponent], games=games, seed=5, workers=1, progress=False,
                      batch_size=100).summary()[0]["score"]


def test_self_play_learns_the_dice_race():
    """After 3,000 games the learned value beats its own untrained network and random by a
    margin (an untrained network already takes a win in reach: about 70% against random)."""
    game = HotRace()
    trainer = Trainer(TDConfig(game=game.name, games=3000, chunk=500, seed=0), game)
    untrained = trainer.agent("untrained")
    while trainer.count < 3000:
        trainer.step()
    trained = trainer.agent("trained")
    assert score(game, trained, untrained) >= 0.54  # 1,000 games: 2.5 standard errors
    assert score(game, trained, RandomAgent()) >= 0.75


class Killed(Exception):
    pass


def test_a_killed_run_resumes_to_the_same_network(tmp_path, monkeypatch):
    game = HotRace()
    config = TDConfig(game=game.name, games=600, chunk=100, eval_every=300, eval_games=10,
                      checkpoint_every=200, opponents=("random",), seed=4)
    straight = run_training(config, runs_dir=tmp_path / "a", progress=False, game=game,
                            write=lambda m: None)
    step, calls = Trainer.step, []

    def dies_on_the_fifth(self):
        calls.append(1)
        if len(calls) == 5:  # after the checkpoint at 400: games 400..500 are lost
            raise Killed
        return step(self)

    monkeypatch.setattr(Trainer, "step", dies_on_the_fifth)
    with pytest.raises(Killed):
        run_training(config, runs_dir=tmp_path / "b", progress=False, game=game,
                     write=lambda m: None)
    monkeypatch.setattr(Trainer, "step", step)
    killed = next((tmp_path / "b").iterdir())
    assert Trainer.load(killed / "last.pt", game)[0].count == 400
    run_training(resume=killed, progress=False, game=game, write=lambda m: None)
    a, _ = Trainer.load(straight / "last.pt", game)
    b, _ = Trainer.load(killed / "last.pt", game)
    assert a.count == b.count == 600
    for x, y in zip(a.net, b.net):
        assert np.array_equal(x, y)
    assert read_csv(straight / "eval.csv") == read_csv(killed / "eval.csv")
    assert (killed / "curve.png").is_file()


# ----- agents ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def model(tmp_path_factory):
    game = HotRace()
    trainer = Trainer(TDConfig(game=game.name, games=200, chunk=100), game)
    trainer.step()
    path = tmp_path_factory.mktemp("td") / "model.pt"
    trainer.save(path, full=False)
    return game, path


@pytest.mark.parametrize("spec", ["td:{},ply=0", "td:{},ply=1", "td:{},ply=2,samples=3",
                                  "mcts:sims=30,value=td:{}"])
def test_the_agents_play_legal_moves(model, spec):
    game, path = model
    agent = make_agent(spec.format(path))
    result = play_match(game, [agent, RandomAgent()], games=6, seed=1, workers=1,
                        progress=False, batch_size=6)
    assert result.summary()[0]["games"] == 6


def test_bad_settings_and_files_are_one_line_errors(model, tmp_path):
    game, path = model
    with pytest.raises(ValueError, match="ply"):
        make_agent(f"td:{path},ply=3")
    with pytest.raises(ValueError, match="no TD checkpoint"):
        make_agent(f"td:{tmp_path / 'missing.pt'}")
    with pytest.raises(ValueError, match="trained on hot_race"):
        make_agent(f"td:{path}").act(make_game("bonobo"), make_game("bonobo").init(1, 0), 0)
    with pytest.raises(ValueError, match="offers no leaf evaluator"):
        make_agent("mcts:value=random")
    with pytest.raises(ValueError, match="resume from its last.pt"):
        Trainer.load(path, game)
    with pytest.raises(ValueError, match="lam"):
        TDConfig(lam=1.5)


def test_bad_train_arguments_are_one_line_errors(tmp_path, capsys):
    from savanna.cli.main import main

    assert main(["train", "td"]) == 2
    assert main(["train", "td", "--resume", str(tmp_path)]) == 2
    assert main(["train", "td", "bonobo", "--lam", "2"]) == 2
    assert main(["train", "td", "bonobo", "--hidden", "wide"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 4 and all(e.startswith("savanna train td: error:") for e in errors)
    assert "no TD checkpoint" in errors[1] and "lam" in errors[2]
