"""This checkout's throughput beside another's (an earlier commit in a git worktree), for a
change that must not cost speed: ``python -m savanna.benchmarks.before_after OTHER``.

Each round runs one fresh process in the other checkout, then one here, each measuring random
playouts, the single env, the vector env (n = 1024, serial) and UCT simulations for every game
or, with ``--search``, the three searches on every game (UCT with rollouts, PUCT and Gumbel
search with a fixed cheap evaluator, so that the search's own cost is measured) or, with
``--training``, Zèbres training end to end (PPO learner steps, AlphaZero self-play's network
leaf evaluations: ``throughput.training_throughput``, ``az_selfplay.selfplay_speed``),
in CPU seconds on one thread (``time.process_time``: other work beside it shows less than in
wall time). It prints each measure's median over the rounds and its ratio here / there, round by
round, so that the spread says what noise the machine adds. ``--same`` instead checks that a
change keeps the searches' results: UCT, PUCT and Gumbel search (with a fixed evaluator) on
a few positions of every game, with fixed seeds, here and there; it prints what differs.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
# Run in each checkout: its own throughput module (an older one named savanna_benchmarks).
MEASURE = """
import json, time
time.perf_counter = time.process_time
try:
    import savanna_benchmarks.throughput as T
except ImportError:
    import savanna.benchmarks.throughput as T
from savanna.registry import make_game
out = {}
for name, opts in T.GAMES.items():
    g = make_game(name, **opts[0])
    out[f"{name} kernel playouts/s"] = T.kernel_playouts(g, 2000, 3, 1, False)
    out[f"{name} single env steps/s"] = T.single_env_steps(g, 3000, 3)
    out[f"{name} vector env steps/s"] = T.vector_env_steps(g, 1024, 20, 3, False)
    out[f"{name} mcts sims/s"] = T.mcts_simulations(g, 2000, 3)
print(json.dumps(out))
"""
SEARCH = """
import json, time
time.perf_counter = time.process_time
import numpy as np
import savanna.benchmarks.throughput as T
from savanna.registry import make_game
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.play.gumbel import GumbelSearch
out = {}
for name, opts in T.GAMES.items():
    g = make_game(name, **opts[0])
    first, p = T.first_decision(g), g.num_players
    states = np.empty(64, g.state_dtype)
    states[:] = first
    def value(obs):
        return np.tanh(obs.reshape(len(obs), -1).sum(axis=1, dtype=np.float64)[:, None] % 7 - 3)
    def evaluator(obs, mask, players):
        return mask.astype(np.float64), np.repeat(value(obs), p, axis=1) * (-1) ** np.arange(p)
    def evaluate(obs, mask):
        return mask.astype(np.float64), (np.repeat(value(obs), p, axis=1)
                                         * (-1) ** np.arange(p)).astype(np.float32)
    uct = MCTSAgent(sims=4000, determinizations=1)
    puct = MCTSAgent(sims=4000, evaluator=evaluator, determinizations=1)
    gumbel = GumbelSearch(g, sims=64)
    out[f"{name} UCT sims/s"] = T.median_rate(
        lambda: uct.search(g, first, np.random.default_rng(0)), 4000, 7)
    out[f"{name} PUCT sims/s"] = T.median_rate(
        lambda: puct.search(g, first, np.random.default_rng(0)), 4000, 7)
    out[f"{name} Gumbel sims/s"] = T.median_rate(
        lambda: gumbel.run(states, evaluate, np.random.default_rng(0)), 64 * 64, 7)
print(json.dumps(out))
"""
SAME = """
import json, warnings
import numpy as np
import savanna.benchmarks.throughput as T
from savanna.registry import make_game
from savanna.agents.play.mcts import MCTSAgent
from savanna.agents.play.gumbel import GumbelSearch
out = {}
def decision(game, rng):
    s = game.init(1, rng=int(rng.integers(1 << 30)))
    for _ in range(rng.integers(0, 12)):
        while game.current_player(s)[0] == -1:
            game.apply_chance(s, game.sample_chance(s, rng))
        if game.current_player(s)[0] < 0:
            break
        s, _ = game.step(s, [rng.choice(np.flatnonzero(game.legal_mask(s)[0]))])
    while game.current_player(s)[0] == -1:
        game.apply_chance(s, game.sample_chance(s, rng))
    return s if game.current_player(s)[0] >= 0 else decision(game, rng)
for name, entry in T.GAMES.items():
    game = make_game(name, **entry[0])
    p, rng = game.num_players, np.random.default_rng(7)
    rows = [decision(game, rng) for _ in range(4)]
    def relative(obs, mask):
        h = obs.reshape(len(obs), -1).astype(np.float64) @ np.sin(np.arange(obs[0].size) + 1.0)
        priors = np.where(mask, np.exp(np.cos(np.arange(mask.shape[1]) * 0.7 + h[:, None])), 0)
        return priors / priors.sum(1, keepdims=True), np.tanh(np.sin(h[:, None] + np.arange(p)))
    def evaluator(obs, mask, players):
        priors, values = relative(obs, mask)
        seats = (players[:, None] + np.arange(p)) % p
        absolute = np.empty_like(values)
        np.put_along_axis(absolute, seats, values, axis=1)
        return priors, absolute
    def evaluate(obs, mask):
        priors, values = relative(obs, mask)
        return priors, values.astype(np.float32)
    for label, agent in [
            ("UCT", MCTSAgent(sims=300, determinizations=1)),
            ("UCT full tree", MCTSAgent(sims=200, max_nodes=130, determinizations=2)),
            ("UCT 3 rollouts", MCTSAgent(sims=200, rollouts=3, c=0.8)),
            ("PUCT", MCTSAgent(sims=200, evaluator=evaluator, leaf_batch=8)),
            ("PUCT noise, playouts", MCTSAgent(sims=150, evaluator=evaluator, leaf_batch=5,
                                               dirichlet_alpha=0.3, rollout_weight=0.5))]:
        for i, row in enumerate(rows):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                visits, values, _ = agent.analyse(game, row, np.random.default_rng(i))
            out[f"{name} {label} position {i}"] = [visits.tolist(), values.round(12).tolist()]
        out[f"{name} {label} moves"] = agent.act(game, np.concatenate(rows),
                                                 np.random.default_rng(5)).tolist()
    for label, settings in [("Gumbel", {}), ("Gumbel noise", {"gumbel_scale": 1.0,
                                                               "rollout_weight": 0.3}),
                            ("Gumbel expected chance", {"expect_chance": True, "sims": 24,
                                                        "determinizations": 2}),
                            ("Gumbel value range", {"value_range": 2.0, "max_considered": 4,
                                                    "sims": 50})]:
        search = GumbelSearch(game, **{"sims": 32, **settings})
        for seed in range(2):
            found = search.run(np.concatenate(rows), evaluate, np.random.default_rng(seed))
            visits = search.pool.nodes["visits"][:int(search.pool.counts[0])]
            out[f"{name} {label} seed {seed}"] = [
                found.actions.tolist(), found.policy.astype(float).round(7).tolist(),
                found.values.round(12).tolist(), visits.tolist()]
print(json.dumps(out))
"""
TRAINING = """
import json, time
time.perf_counter = time.process_time
import savanna.benchmarks.az_selfplay as A
import savanna.benchmarks.throughput as T
out = {"zebres PPO learner steps/s": T.training_throughput("zebres", updates=3)}
window = A.selfplay_speed("zebres", moves=20, repeats=1, warmup_moves=30, games=256)[0]
out["zebres AlphaZero self-play leaf evaluations/s"] = window["leaf_evals_per_cpu_s"]
print(json.dumps(out))
"""


def measure(checkout, code=MEASURE):
    env = {**os.environ, "PYTHONPATH": str(checkout),
           "NUMBA_CACHE_DIR": str(checkout / ".numba_cache")}
    done = subprocess.run([sys.executable, "-c", code], cwd=checkout, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m savanna.benchmarks.before_after",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a git worktree)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default: 3)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--search", action="store_true",
                       help="UCT, PUCT and Gumbel search on every game instead")
    which.add_argument("--training", action="store_true",
                       help="Zèbres PPO and AlphaZero self-play training instead")
    which.add_argument("--same", action="store_true",
                       help="whether the searches find the same as there, move for move")
    args = parser.parse_args(argv)
    if args.same:
        there, here = measure(args.other.resolve(), SAME), measure(HERE, SAME)
        differ = [key for key in there if there[key] != here.get(key)]
        print(f"{len(there)} searches compared; {len(differ)} differ"
              + "".join(f"\n  {key}" for key in differ))
        return
    code = TRAINING if args.training else SEARCH if args.search else MEASURE
    runs = [(measure(args.other.resolve(), code), measure(HERE, code))
            for _ in range(args.rounds)]
    print("| measure | there | here | here / there (each round) |\n|---|---:|---:|---:|")
    for key in runs[0][0]:
        there = statistics.median(a[key] for a, _ in runs)
        here = statistics.median(b[key] for _, b in runs)
        rounds = ", ".join(f"{b[key] / a[key]:.2f}" for a, b in runs)
        print(f"| {key} | {there:,.0f} | {here:,.0f} | {here / there:.2f} ({rounds}) |")


if __name__ == "__main__":
    main()
