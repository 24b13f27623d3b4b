"""Random-play throughput of each game: kernel (1 and all threads), reference, envs.

Every figure is the median of ``repeats`` timed runs after a warm-up run, and every row of one
game is measured in the same process, one after the other, so that ratios compare like with
like on a shared machine.
"""
import importlib
import statistics
import time
from typing import NamedTuple

import numba
import numpy as np
from numba import njit

from savanna.env import SavannaEnv
from savanna.game import CHANCE
from savanna.registry import GAMES as REGISTERED
from savanna.registry import make_game
from savanna.rng import below, make_streams
from savanna.vector_env import SavannaVectorEnv


def measured_configs(most=False):
    """``[(name, options)]`` of every registered game (a plug-in's too): with its fewest
    players, and with ``most`` its most players too, every other option at its default."""
    configs = []
    for name, entry in REGISTERED.items():
        low, high = entry.players
        counts = (low, high) if most and high > low else (low,)
        configs += [(name, {"num_players": n} if high > low else {}) for n in counts]
    return configs


# game name -> (game options, reference module): every registered game, with its fewest players
GAMES = {name: (options, REGISTERED[name].reference)
         for name, options in measured_configs()}
REFERENCE_API = ("from_position", "current_player", "legal_actions", "step")
VECTOR_SIZES = (1, 64, 1024, 4096)


class Rate(NamedTuple):
    """A rate's min, median and max over the timed repeats."""

    min: float
    median: float
    max: float

    @property
    def spread(self):
        """(max - min) / median: how far the repeats disagree."""
        return (self.max - self.min) / self.median


def spread_rate(run, count, repeats):
    """``Rate`` of ``count / seconds`` over ``repeats`` timed calls of ``run`` (after a
    warm-up)."""
    run()
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    return Rate(min(rates), statistics.median(rates), max(rates))


def interleaved_rates(runs, repeats):
    """``{key: Rate}`` of ``runs = {key: (run, count)}``, timed in turn within each repeat
    (order reversed every other repeat) after one warm-up round, so that a load that comes and
    goes on a shared machine touches every variant alike. A ``run`` that returns a number
    has timed itself: those seconds count (say, a step loop that leaves its policy out)."""
    for run, _ in runs.values():
        run()
    rates = {key: [] for key in runs}
    for r in range(repeats):
        for key in list(runs)[:: 1 if r % 2 == 0 else -1]:
            run, count = runs[key]
            start = time.perf_counter()
            seconds = run()
            if seconds is None:
                seconds = time.perf_counter() - start
            rates[key].append(count / seconds)
    return {key: Rate(min(v), statistics.median(v), max(v)) for key, v in rates.items()}


def median_rate(run, count, repeats):
    """Median of ``count / seconds`` over ``repeats`` timed calls of ``run`` (after a warm-up)."""
    return spread_rate(run, count, repeats).median


def kernel_playouts(game, n, repeats, threads, parallel):
    """Random games per second through the compiled playout loop (serial or prange)."""
    start = game.init(n, rng=0)
    numba.set_num_threads(threads)
    try:
        return median_rate(lambda: game.random_playouts(start.copy(), rng=1, parallel=parallel),
                           n, repeats)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def reference_playouts(game, module_name, n, repeats):
    """Random games per second through the pure-Python reference rules, each game starting
    from one of the kernel's initial states (so random setups are drawn alike)."""
    ref = importlib.import_module(module_name)
    starts = [game.notation.parse(game.to_text(row)) for row in game.init(n, rng=0)]
    rng = np.random.default_rng(0)

    def chance(state):
        if hasattr(ref, "chance_outcomes"):
            outcomes = ref.chance_outcomes(state)
            return list(outcomes), np.array(list(outcomes.values()))
        probs = np.array(ref.chance_probs(state))
        return list(range(len(probs))), probs

    def run():
        for start in starts:
            state = ref.from_position(start)
            while (player := ref.current_player(state)) != -2:
                if player == -1:
                    keys, p = chance(state)
                    state = ref.apply_chance(state, keys[rng.choice(len(keys), p=p / p.sum())])
                else:
                    legal = ref.legal_actions(state)
                    state, _ = ref.step(state, legal[rng.integers(len(legal))])

    return median_rate(run, n, repeats)


def single_env_steps(game, steps, repeats):
    """Agent steps per second of the Gymnasium env against its compiled random opponent."""
    env = SavannaEnv(game)
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def run():
        for _ in range(steps):
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            if terminated:
                env.reset()

    return median_rate(run, steps, repeats)


@njit(cache=True)
def random_legal(mask, streams, out):
    """A uniform random legal action per row of an int8 mask (the benchmark's policy)."""
    for i in range(mask.shape[0]):
        k = 0
        for a in range(mask.shape[1]):
            k += mask[i, a]
        pick = below(streams, i, k) if k > 0 else 0
        out[i] = 0
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1


def vector_env_steps(game, n, steps, repeats, parallel):
    """Env-steps per second of the vector env (uniform random legal actions, autoreset)."""
    venv = SavannaVectorEnv(game, num_envs=n, parallel=parallel)
    obs, _ = venv.reset(seed=0)
    streams = make_streams(0, n)
    actions = np.zeros(n, np.int64)
    holder = {"obs": obs}

    def run():
        for _ in range(steps):
            random_legal(holder["obs"]["action_mask"], streams, actions)
            holder["obs"] = venv.step(actions)[0]

    return median_rate(run, n * steps, repeats)


def first_decision(game, rng=0):
    """The start position, advanced through any chance nodes to the first decision."""
    s = game.init(1, rng=rng)
    gen = np.random.default_rng(rng)
    while game.current_player(s)[0] == CHANCE:
        game.apply_chance(s, game.sample_chance(s, gen))
    return s[0]


def mcts_simulations(game, sims, repeats):
    """UCT simulations per second (one random rollout each) from the first decision, 1 thread."""
    from savanna.agents.play.mcts import MCTSAgent

    agent = MCTSAgent(sims=sims, rollouts=1, determinizations=1)
    row = first_decision(game)
    return median_rate(lambda: agent.search(game, row, np.random.default_rng(0)), sims, repeats)


def training_throughput(game="zebres", updates=10, **settings):
    """End-to-end PPO training speed in learner steps per second of wall time: rollouts from
    the batched envs against the default opponent pool, and the updates, after one warm-up
    update (compilation)."""
    from savanna.agents.models.ppo_config import PPOConfig
    from savanna.agents.training.ppo import Trainer

    trainer = Trainer(PPOConfig(game=game, steps=10**12, **settings))
    trainer.step()
    start = time.perf_counter()
    for _ in range(updates):
        trainer.step()
    return updates * trainer.config.batch_size / (time.perf_counter() - start)


def ppo_training(game, repeats, updates):
    """End-to-end masked PPO training speed (learner steps/s: rollouts against the default
    opponent pool plus the updates), median of ``repeats`` measurements. A game without
    scores trains without shaping, against itself and random play (no greedy opponent)."""
    settings = {} if game.has_scores else {"shaping": 0.0,
                                           "opponents": {"self": 0.8, "random": 0.2}}
    return statistics.median(training_throughput(game.name, updates=updates, **settings)
                             for _ in range(repeats))


def measure_game(name, quick=False, progress=print):
    """All throughput rows of one game, as ``[(what, rate, unit)]``."""
    options, ref_module = GAMES[name]
    game = make_game(name, **options)
    progress(f"{name}: compiling...")
    game.warmup()
    repeats = 3 if quick else 7
    scale = 0.1 if quick else 1.0
    rows = []
    progress(f"{name}: kernel playouts")
    n = int(20000 * scale)
    all_threads = numba.config.NUMBA_NUM_THREADS
    one = kernel_playouts(game, n, repeats, 1, False)
    rows.append(("kernel random playouts, serial loop, 1 thread", one, "games/s"))
    one_par = kernel_playouts(game, n * all_threads, repeats, 1, True)
    rows.append(("kernel random playouts, parallel loop, 1 thread", one_par, "games/s"))
    many = kernel_playouts(game, n * all_threads, repeats, all_threads, True)
    rows.append((f"kernel random playouts, parallel loop, {all_threads} threads", many,
                 "games/s"))
    progress(f"{name}: MCTS")
    sims = mcts_simulations(game, int(100000 * scale), repeats)
    rows.append(("MCTS (UCT, 1 rollout per simulation), 1 thread", sims, "simulations/s"))
    ref = None
    if all(hasattr(importlib.import_module(ref_module), f) for f in REFERENCE_API):
        progress(f"{name}: reference playouts")
        ref = reference_playouts(game, ref_module, max(5, int(100 * scale)), repeats)
        rows.append(("reference random playouts", ref, "games/s"))
    else:
        progress(f"{name}: no reference playouts ({ref_module} lacks {', '.join(REFERENCE_API)})")
    progress(f"{name}: single env")
    rows.append(("Gymnasium env (random opponent)", single_env_steps(game, int(20000 * scale),
                                                                     repeats), "steps/s"))
    for n in VECTOR_SIZES:
        progress(f"{name}: vector env n={n}")
        steps = max(5, int(scale * min(4000, 400000 // n)))
        rows.append((f"vector env, n={n}, 1 thread",
                     vector_env_steps(game, n, steps, repeats, False), "env-steps/s"))
        if n >= 1024:
            rows.append((f"vector env, n={n}, {all_threads} threads",
                         vector_env_steps(game, n, steps, repeats, True), "env-steps/s"))
    progress(f"{name}: PPO training")
    rows.append(("PPO training end to end, 1 torch thread",
                 ppo_training(game, 1 if quick else 3, 2 if quick else 6), "learner steps/s"))
    rows.append((f"ratio: parallel loop, {all_threads} threads / 1 thread", many / one_par, "x"))
    if ref is not None:
        rows.append(("ratio: kernel (serial loop, 1 thread) / reference", one / ref, "x"))
    rows.append(("ratio: MCTS simulations / kernel playouts (serial loop)", sims / one, "x"))
    return rows
