"""TD(lambda)'s speeds: ``python -m savanna.benchmarks.td_speed [--model GAME=PATH ...]``.

For Bonobo Beach and Banjooli with two players, per CPU second of one process (one thread,
so what one idle core does, whatever else shares the machine):

* value evaluations: the compiled sparse network on self-play observations, one at a time,
  against the same network in torch (one thread) on dense batches of 1, 64 and 1,024;
* self-play games, learning included (``savanna.agents.training.td.Trainer``);
* time per move of the TD player at 0, 1 and 2 ply and of MCTS with 100 and 1,000
  simulations, on positions of random games (``--model``: a trained model, else fresh
  weights: the time barely depends on the weights).

Prints a Markdown table per game.
"""
import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from savanna.agents.models.td_config import TDConfig
from savanna.agents.models.td_value import new_work, observed_value
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.play.registry import make_agent
from savanna.agents.training.td import Trainer
from savanna.codes import CHANCE, TERMINAL
from savanna.registry import make_game

GAMES = ("bonobo", "banjooli")


def cpu_rate(work, count, least=1.0):
    """``count`` units per CPU second of ``work()``, repeated for at least ``least`` s."""
    done, start = 0, time.process_time()
    while True:
        work()
        done += count
        spent = time.process_time() - start
        if spent >= least:
            return done / spent


def positions(game, n, rng):
    """``n`` decision nodes from random games."""
    found = []
    while len(found) < n:
        s = game.init(1, rng)
        while True:
            player = game.current_player(s)[0]
            if player == TERMINAL:
                break
            if player == CHANCE:
                game.apply_chance(s, game.sample_chance(s, rng))
                continue
            if rng.random() < 0.1 and game.legal_mask(s)[0].sum() > 1:
                found.append(s.copy())
            s, _ = game.step(s, RandomAgent().act(game, s, rng))
    return found[:n]


def measure(name, model=None, seconds=2.0):
    """The rows of one game's table: (measurement, value, unit)."""
    import torch

    torch.set_num_threads(1)
    game = make_game(name, num_players=2)
    trainer = Trainer(TDConfig(game=name, game_options={"num_players": 2}, chunk=4), game)
    trainer.step()  # compiles
    rows = [("self-play games, learning included", cpu_rate(trainer.step, 4, seconds),
             "games per CPU s")]
    records = int(trainer._end_log.argmax()) + 1 if trainer._end_log.any() else 1
    obs = trainer._obs_log[:records, 0].copy()
    net, work = trainer.net, new_work(trainer.net)

    def numba_values():
        for row in obs:
            observed_value(net, row, work)

    rows.append(("value, compiled sparse network, one at a time", cpu_rate(
        numba_values, len(obs), seconds), "evaluations per CPU s"))
    w1, b1, w2, b2 = (torch.from_numpy(w) for w in net)
    for batch in (1, 64, 1024):
        x = torch.from_numpy(obs[np.arange(batch) % len(obs)].astype(np.float32))

        def torch_values(x=x):
            with torch.no_grad():
                torch.tanh(torch.relu(x @ w1 + b1) @ w2 + b2)

        rows.append((f"value, torch dense batch of {batch:,}", cpu_rate(
            torch_values, batch, seconds), "evaluations per CPU s"))
    if model is not None:
        return rows + _move_times(game, model)
    with tempfile.TemporaryDirectory() as folder:
        trainer.save(Path(folder) / "fresh.pt", full=False)
        return rows + _move_times(game, Path(folder) / "fresh.pt")


def _move_times(game, model):
    """The rows of the time per move of each player."""
    rng = np.random.default_rng(0)
    states = positions(game, 20, rng)
    rows = []
    for ply in (0, 1, 2):
        rows.append((f"time per move, TD {ply}-ply", _per_move(
            game, make_agent(f"td:{model},ply={ply}"), states[:5 if ply == 2 else 20], rng),
            "ms per move (CPU)"))
    for sims in (100, 1000):
        rows.append((f"time per move, mcts:sims={sims}", _per_move(
            game, make_agent(f"mcts:sims={sims}"), states, rng), "ms per move (CPU)"))
    rows.append(("time per move, mcts:sims=100 with the TD value", _per_move(
        game, make_agent(f"mcts:sims=100,value=td:{model}"), states, rng),
        "ms per move (CPU)"))
    return rows


def _per_move(game, agent, states, rng):
    agent.act(game, states[0], rng)  # compiles
    start = time.process_time()
    for s in states:
        agent.act(game, s, rng)
    return 1000 * (time.process_time() - start) / len(states)


def _cpu():
    """The processor's model name and the core count."""
    try:
        with open("/proc/cpuinfo") as f:
            name = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model"))
    except (OSError, StopIteration):
        name = "CPU"
    return f"{name}, {os.cpu_count()} cores"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", default=[], metavar="GAME=PATH",
                        help="a trained model to time the TD player with")
    parser.add_argument("--games", default=",".join(GAMES), help="games, comma-separated")
    args = parser.parse_args(argv)
    models = dict(m.split("=", 1) for m in args.model)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"`python -m savanna.benchmarks.td_speed`; {_cpu()}, "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name in args.games.split(","):
        print(f"\n### {name}, 2 players\n\n| measurement | value | unit |\n|---|---:|---|")
        for label, value, unit in measure(name, models.get(name)):
            print(f"| {label} | {value:,.1f} | {unit} |" if value < 100
                  else f"| {label} | {value:,.0f} | {unit} |")


if __name__ == "__main__":
    main()
