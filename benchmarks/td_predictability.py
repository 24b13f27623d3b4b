"""How well a value can predict its game's outcome, measured on games it never saw:
``python -m savanna.benchmarks.td_predictability GAME [--games N] [--agent SPEC | --search
SIMS] [--epochs E] [--save F.npz | --load F.npz]``.

TD(lambda) from scratch starts by learning the value of near-random play; if what a seat sees
barely predicts who wins such games, the first value has little to learn and self-play little
to improve on. This records ``--games`` games of two players (by default random, compiled, as
``savanna train td`` records them: seat 0's observation after every real choice, the game's
return to seat 0), fits the value network's shape (one hidden layer of ``--hidden`` ReLU
units, tanh output) with Adam on the first 80% of the games, and prints, on the other 20% and
by phase of the game, the correlation of its predictions with the returns and their mean
squared error: from the observation, from the observation with the scoring features
(``savanna.benchmarks.td_scoring``) and from the features alone. ``--agent SPEC`` plays
the games with that agent in every seat instead (for example ``mcts:sims=64``). ``--search
SIMS`` plays them with MCTS of SIMS simulations and records every decision as its mover sees
it with the search's root value: the table adds that value's own figures (the teacher's) and
a network fitted to it instead of the outcome (TreeStrap's targets).
"""
import argparse

import numpy as np

from savanna.agents.models.td_config import TDConfig
from savanna.agents.play import _td_kernels
from savanna.agents.play.base import random_argmax
from savanna.agents.play.registry import make_agent
from savanna.agents.training.td import Trainer
from savanna.benchmarks.td_scoring import scoring_features
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


def search_records(name, games, sims, seed=1):
    """Games of ``mcts:sims=SIMS`` in every seat, each decision with two or more legal moves
    recorded as its mover sees it: ``(obs, returns, phase, index, teacher)``, where
    ``teacher`` is the search's root value for the mover (the mean return of its
    simulations: TreeStrap's target) and ``returns`` the mover's return at the end."""
    game = make_game(name, num_players=2)
    agent, rng = make_agent(f"mcts:sims={sims}"), np.random.default_rng(seed)
    obs, returns, phase, index, teacher = [], [], [], [], []
    for i in range(games):
        s, seen, movers, total = game.init(1, rng), [], [], np.zeros(2)
        while (player := game.current_player(s)[0]) != TERMINAL:
            if player == CHANCE:
                game.apply_chance(s, game.sample_chance(s, rng))
                continue
            legal = game.legal_mask(s)
            visits, values = agent.search(game, s, rng, check=False)
            if legal[0].sum() > 1:
                seen.append(game.observe(s, player)[0].ravel().copy())
                movers.append(player)
                teacher.append(float(values[player]))
            s, rewards = game.step(s, random_argmax(np.where(legal, visits, -1), rng))
            total += rewards[0]
        obs += seen
        returns += [float(total[p]) for p in movers]
        phase += [k / len(seen) for k in range(len(seen))]
        index += [i] * len(seen)
    return (np.array(obs), np.array(returns), np.array(phase), np.array(index),
            np.array(teacher))


PHASES = (("all", 0.0, 1.0), ("first third", 0.0, 1 / 3), ("middle third", 1 / 3, 2 / 3),
          ("last third", 2 / 3, 1.0), ("second half", 0.5, 1.0), ("last tenth", 0.9, 1.0))


def held_out_split(index):
    """The first record of the last 20% of the games: fit before it, measure after."""
    return int(np.searchsorted(index, int(index.max() * 0.8)))


def by_phase(predicted, returns, phase):
    """``{phase name: (correlation with the return, mean squared error)}`` (a record's phase:
    its place in its game, 0 first)."""
    rows = {}
    for label, low, high in PHASES:
        mask = (phase >= low) & (phase <= high) if low == 0 else (phase > low) & (phase <= high)
        p, r = predicted[mask], returns[mask]
        rows[label] = (float(np.corrcoef(p, r)[0, 1]) if p.std() > 0 else 0.0,
                       float(((p - r) ** 2).mean()))
    return rows


def fit_network(inputs, targets, hidden=64, epochs=5, seed=0, after_epoch=None):
    """The value network's shape (one hidden layer of ReLU units, tanh output) fitted with
    Adam to ``targets``; ``after_epoch(net)`` is called after each epoch. Returns the torch
    network."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    x = torch.from_numpy(np.asarray(inputs, np.float32))
    y = torch.from_numpy(np.asarray(targets, np.float32))
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
                              torch.nn.Linear(hidden, 1), torch.nn.Tanh())
    optimizer = torch.optim.Adam(net.parameters(), 1e-3)
    for _ in range(epochs):
        for batch in torch.randperm(len(x)).split(256):
            loss = ((net(x[batch]).squeeze(1) - y[batch]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if after_epoch is not None:
            after_epoch(net)
    return net


def held_out_fit(inputs, targets, returns, phase, index, hidden=64, epochs=5, seed=0):
    """``fit_network`` on the first 80% of the games; after each epoch, ``by_phase`` of its
    predictions against the *returns* on the other 20%."""
    import torch

    cut = held_out_split(index)
    held = torch.from_numpy(np.asarray(inputs[cut:], np.float32))
    rows = []

    def measure(net):
        with torch.no_grad():
            predicted = net(held).squeeze(1).numpy()
        rows.append(by_phase(predicted, returns[cut:], phase[cut:]))

    fit_network(inputs[:cut], targets[:cut], hidden, epochs, seed, measure)
    return rows


def fits(name, records, hidden=64, epochs=5):
    """``[(label, by_phase rows after each epoch)]``: the value fitted to the returns from the
    observation, from the observation and the scoring features, and from the features alone;
    with a teacher, the teacher itself and the value fitted to it."""
    obs, returns, phase, index, teacher = records
    features = scoring_features(name, obs)
    both = np.concatenate([obs.astype(np.float32), features], 1)
    cut = held_out_split(index)
    rows = [(label, held_out_fit(x, returns, returns, phase, index, hidden, epochs))
            for label, x in (("observation → return", obs),
                             ("observation + scoring → return", both),
                             ("scoring alone → return", features))]
    if teacher is not None:
        rows += [("observation + scoring → search value",
                  held_out_fit(both, teacher, returns, phase, index, hidden, epochs)),
                 ("the search's own value", [by_phase(teacher[cut:], returns[cut:],
                                                      phase[cut:])])]
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=5)
    played = parser.add_mutually_exclusive_group()
    played.add_argument("--agent", help="the agent playing every seat (default: random, "
                                        "compiled)")
    played.add_argument("--search", type=int, metavar="SIMS",
                        help="MCTS with SIMS simulations in every seat, its root values the "
                             "teacher's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="write the records to this .npz file")
    parser.add_argument("--load", help="read the records from this .npz file instead of "
                                       "playing")
    args = parser.parse_args(argv)
    if args.load:
        with np.load(args.load) as held:
            records = tuple(held[k] if k in held else None
                            for k in ("obs", "returns", "phase", "index", "teacher"))
        source = args.load
    else:
        if args.search:
            records = search_records(args.game, args.games, args.search, args.seed)
        elif args.agent:
            records = agent_records(args.game, args.games, args.agent, args.seed) + (None,)
        else:
            records = random_records(args.game, args.games, args.seed) + (None,)
        source = (f"mcts:sims={args.search}" if args.search else args.agent) or "random"
    if args.save:
        np.savez_compressed(args.save, **{k: v for k, v in zip(
            ("obs", "returns", "phase", "index", "teacher"), records) if v is not None})
    games = int(records[3].max()) + 1
    print(f"{args.game}, 2 players: {len(records[0]):,} records of {games:,} games of "
          f"{source}; on the last 20% of the games, after {args.epochs} epochs: correlation "
          f"with the return (mean squared error)")
    print("| value | " + " | ".join(label for label, _, _ in PHASES) + " |")
    print("|---|" + "---:|" * len(PHASES))
    for label, epochs in fits(args.game, records, args.hidden, args.epochs):
        cells = (f"{c:.3f} ({e:.3f})" for c, e in epochs[-1].values())
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
