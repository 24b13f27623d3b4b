"""How well a seat's observation predicts its game's outcome under random play:
``python -m savanna.benchmarks.td_predictability GAME [--games N] [--hidden H] [--agent SPEC]``.

TD(lambda) from scratch starts by learning the value of near-random play; if what a seat sees
barely predicts who wins such games, the first value has little to learn and self-play little
to improve on. This records ``--games`` random games of two players as ``savanna train td``
records them (seat 0's observation after every real choice, the game's return to seat 0),
fits the value network's shape (one hidden layer of ``--hidden`` ReLU units, tanh output) with
Adam on the first 80% of the games, and prints the correlation of its predictions with the
returns on the other 20%, over all records and over the second half and the last tenth of
each game. ``--agent SPEC`` plays the games with that agent in every seat instead (for
example ``mcts:sims=64``): how predictable the outcome of stronger play is.
"""
import argparse

import numpy as np

from savanna.agents.models.td_config import TDConfig
from savanna.agents.play import _td_kernels
from savanna.agents.play.registry import make_agent
from savanna.agents.training.td import Trainer
from savanna.codes import CHANCE, TERMINAL
from savanna.registry import make_game


def random_records(name, games, seed=1):
    """``(obs uint8[n, F], returns float[n], phase float[n], game index int[n])``."""
    game = make_game(name, num_players=2)
    trainer = Trainer(TDConfig(game=name, game_options={"num_players": 2}, epsilon=1.0), game)
    kernels = game.compiled(_td_kernels)
    states = game.unchecked.init(games, seed)
    obs, returns, phase, index = [], [], [], []
    for i in range(games):
        t = kernels.selfplay_game(states, i, trainer.net, trainer._obs, trainer._work,
                                  trainer.buf, 1.0, trainer._values, trainer._obs_log,
                                  trainer._cum_log, trainer._end_log, trainer._total)
        for k in range(max(t, 0)):
            if not trainer._end_log[k]:
                obs.append(trainer._obs_log[k, 0].copy())
                returns.append(float(trainer._total[0]))
                phase.append(k / t)
                index.append(i)
    return np.array(obs), np.array(returns), np.array(phase), np.array(index)


def agent_records(name, games, spec, seed=1):
    """As ``random_records``, the games played by the agent ``spec`` in every seat."""
    game = make_game(name, num_players=2)
    agent, rng = make_agent(spec), np.random.default_rng(seed)
    obs, returns, phase, index = [], [], [], []
    for i in range(games):
        s, seen, total = game.init(1, rng), [], 0.0
        while (player := game.current_player(s)[0]) != TERMINAL:
            if player == CHANCE:
                game.apply_chance(s, game.sample_chance(s, rng))
                continue
            choices = game.legal_mask(s)[0].sum()
            s, rewards = game.step(s, agent.act(game, s, rng))
            total += float(rewards[0, 0])
            if choices > 1 and game.current_player(s)[0] != TERMINAL:
                seen.append(game.observe(s, 0)[0].ravel().copy())
        obs += seen
        returns += [total] * len(seen)
        phase += [k / len(seen) for k in range(len(seen))]
        index += [i] * len(seen)
    return np.array(obs), np.array(returns), np.array(phase), np.array(index)


def held_out_correlations(obs, returns, phase, index, hidden=64, epochs=5, seed=0):
    """Correlations on the last 20% of the games: ``{"all", "second half", "last tenth"}``
    after each epoch of Adam."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    cut = int(np.searchsorted(index, int(index.max() * 0.8)))
    x = torch.from_numpy(obs.astype(np.float32))
    y = torch.from_numpy(returns.astype(np.float32))
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, 1), torch.nn.Tanh())
    optimizer = torch.optim.Adam(net.parameters(), 1e-3)
    rows = []
    for _ in range(epochs):
        for batch in torch.randperm(cut).split(256):
            loss = ((net(x[batch]).squeeze(1) - y[batch]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            predicted = net(x[cut:]).squeeze(1).numpy()
        held, where = returns[cut:], phase[cut:]
        rows.append({label: float(np.corrcoef(predicted[mask], held[mask])[0, 1])
                     for label, mask in (("all", where >= 0), ("second half", where > 0.5),
                                         ("last tenth", where > 0.9))})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--agent", help="the agent playing every seat (default: random, "
                                        "compiled)")
    args = parser.parse_args(argv)
    if args.agent:
        obs, returns, phase, index = agent_records(args.game, args.games, args.agent)
    else:
        obs, returns, phase, index = random_records(args.game, args.games)
    print(f"{args.game}, 2 players: {len(obs):,} records of {args.games:,} games of "
          f"{args.agent or 'random'}; held-out correlation of the fitted value with the return")
    print("| epoch | all records | second half | last tenth |\n|---:|---:|---:|---:|")
    for epoch, row in enumerate(held_out_correlations(obs, returns, phase, index,
                                                      args.hidden), 1):
        print(f"| {epoch} | {row['all']:.3f} | {row['second half']:.3f} | "
              f"{row['last tenth']:.3f} |")


if __name__ == "__main__":
    main()
