"""Savanna side by side with its peers, in one run: ``python -m savanna.benchmarks --peers``.

Connect four against OpenSpiel's C++ random play and ``MCTSBot``, pgx and PettingZoo, and on
Zèbres PPO against sb3-contrib's ``MaskablePPO``; each row's min, median and max, the ratios
of medians measured in the same process, and a chart, into ``benchmarks/RESULTS.md``. What
each row measures: the benchmarks guide (docs/guides/benchmarks.md).
"""
import contextlib
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from savanna import threads
from savanna.benchmarks.throughput import Rate, interleaved_rates, random_legal, spread_rate
from savanna.connect_four import _kernels as C4
from savanna.registry import make_game
from savanna.rng import below, make_streams

CHART = Path(__file__).with_name("peers.png")
GAME = "zebres"
C4_GAME = "connect_four"
PLY = 6                     # plies of seeded random play before the searched Zèbres position
UCT_C = 1.4
SPREAD_FLAG = 0.20          # a row whose (max - min) / median exceeds this is flagged
STRENGTH_GAMES = 200
MOVE_SECONDS = 0.01         # wall time per move of both sides in the strength match
# (comparison, numerator row, denominator rows (the fastest that ran), target or None)
RATIOS = [
    ("c4 playouts", "ours", ["bare"], 0.5),
    ("c4 playouts", "ours", ["os_bots"], 5.0),
    ("c4 MCTS", "ours", ["os_cpp"], 2.0),
    ("c4 strength", "won", [], 60.0),  # no denominator: the row's own figure (% won)
    ("c4 vector env", "ours_adaptive", ["pgx"], 1.5),
    ("c4 single env", "ours", ["pettingzoo"], 10.0),
    ("under load", "env_load_adaptive", ["env_load_1"], 0.9),
    ("under load", "playouts_load_adaptive", ["playouts_load_1"], 0.9),
    ("under load", "env_load_static", ["env_load_1"], None),
    ("under load", "playouts_load_static", ["playouts_load_1"], None),
    ("under load", "env_idle_adaptive", ["env_idle_static"], None),
    ("under load", "playouts_idle_adaptive", ["playouts_idle_static"], None),
    ("Zèbres MCTS", "ours", ["os_python", "os_cpp"], 50.0),
    ("Zèbres PPO", "ours", ["sb3"], 4.0),
    ("Zèbres PPO", "ours_2", ["sb3", "sb3_2"], 10.0),  # two cores each, sb3's best use of them
    ("Zèbres env API", "ours", ["aec"], None),
]


class Run(NamedTuple):
    """A timed unit of work: ``run()`` does ``count`` things (games, steps, simulations).
    The rows of a comparison that return one are timed in turn, repeat by repeat."""

    run: Callable
    count: int


class Skipped(Exception):
    """A comparison that cannot run here (missing library, crashing peer): the reason."""


def search_position(game):
    """The searched Zèbres position and the actions that reach it from the start."""
    rng = np.random.default_rng(0)
    s = game.init(1, rng=0)
    actions = []
    for _ in range(PLY):
        a = int(rng.choice(np.flatnonzero(game.legal_mask(s)[0])))
        actions.append(a)
        game.step_inplace(s, [a])
    return s, actions


def _pyspiel():
    try:
        import pyspiel
    except ImportError as err:
        raise Skipped(f"OpenSpiel is not installed ({err}): pip install '.[interop]'") from None
    return pyspiel


# ----- connect four: playouts ---------------------------------------------------------------
def c4_playouts(n):
    """Our random playouts, serial loop, 1 thread: games/s."""
    game = make_game(C4_GAME)
    game.warmup()
    start = game.init(n, rng=0)
    return Run(lambda: game.random_playouts(start.copy(), rng=1), n)


@njit(cache=True)
def bare_playouts(n, streams):
    """``n`` random games on bare bitboards (locals only, no state rows, no kernel calls):
    the same board layout, four test and random streams as the game's kernels. Returns x's
    wins (so the work cannot be optimised away)."""
    wins = 0
    for _ in range(n):
        own0 = C4.ZERO
        own1 = C4.ZERO
        player = 0
        for _ply in range(C4.NUM_CELLS):
            occupied = own0 | own1
            free = 0
            for c in range(7):
                if occupied & C4.TOP[c] == C4.ZERO:
                    free += 1
            pick = below(streams, 0, free)
            col = 0
            for c in range(7):
                if occupied & C4.TOP[c] == C4.ZERO:
                    if pick == 0:
                        col = c
                        break
                    pick -= 1
            stone = C4.drop(occupied, col)
            if player == 0:
                own0 |= stone
                if C4.has_four(own0):
                    wins += 1
                    break
            else:
                own1 |= stone
                if C4.has_four(own1):
                    break
            player = 1 - player
    return wins


def c4_bare(n):
    streams = make_streams(0, 1)
    return Run(lambda: bare_playouts(n, streams), n)


def c4_openspiel_bots(n):
    """OpenSpiel C++: ``evaluate_bots`` with two uniform random bots, one game per call."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game("connect_four")
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in (0, 1)]

    def run():
        for seed in range(n):  # it plays the state in place: a new one each game
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)

    return Run(run, n)


# ----- connect four: MCTS -------------------------------------------------------------------
def c4_mcts(sims, searches=10):
    from savanna.agents.play.mcts import MCTSAgent

    game = make_game(C4_GAME)
    game.warmup()
    root = game.init(1)
    agent = MCTSAgent(sims=sims, c=UCT_C, rollouts=1)
    rng = np.random.default_rng(0)
    return Run(lambda: [agent.search(game, root, rng) for _ in range(searches)],
               sims * searches)


def _openspiel_c4_bot(pyspiel, game, sims, seed):
    """OpenSpiel's C++ UCT on its connect four (the evaluator is returned too: the bot holds
    no reference to it)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, sims, 1 << 11, False, seed, False)
    return bot, evaluator


def c4_openspiel_mcts(sims, searches=10):
    pyspiel = _pyspiel()
    game = pyspiel.load_game("connect_four")
    bot, _evaluator = _openspiel_c4_bot(pyspiel, game, sims, 0)
    state = game.new_initial_state()
    return Run(lambda: [bot.step(state) for _ in range(searches)], sims * searches)


def c4_strength(games, seconds, progress=print):
    """Savanna's UCT against OpenSpiel's C++ UCT, about ``seconds`` per move each, seats
    alternating: ``(% won by Savanna, % drawn, mean seconds per move of ours, of theirs)``.

    OpenSpiel's bot gets a fixed number of simulations, calibrated on the empty board to take
    ``seconds`` (its own time limit, ``max_wall_clock_time``, crashed pyspiel in open_spiel
    2.0.2 with a null pointer when a busy machine let no simulation finish in time); ours gets
    a time budget steered, move by move, towards the mean time OpenSpiel's moves actually
    took, so that both sides spend the same wall time per move on average."""
    from savanna.agents.play.mcts import MCTSAgent

    pyspiel = _pyspiel()
    ours_game = make_game(C4_GAME)
    ours_game.warmup()
    theirs_game = pyspiel.load_game("connect_four")
    probe = c4_openspiel_mcts(1000, searches=3)
    start = time.perf_counter()
    probe.run()
    sims = max(1, round(probe.count / (time.perf_counter() - start) * seconds))
    agent = MCTSAgent(sims=1, time_budget=seconds, c=UCT_C, rollouts=1)
    won = drawn = 0
    clock = {0: [0.0, 0], 1: [0.0, 0]}  # side (0 ours) -> [seconds, moves]
    budget = seconds
    for g in range(games):
        our_seat = g % 2
        bot, _evaluator = _openspiel_c4_bot(pyspiel, theirs_game, sims, g)
        rng = np.random.default_rng(g)
        ours, theirs = ours_game.init(1), theirs_game.new_initial_state()
        while not theirs.is_terminal():
            side = 0 if theirs.current_player() == our_seat else 1
            agent.time_budget = budget
            start = time.perf_counter()
            action = (int(agent.act(ours_game, ours, rng)[0]) if side == 0
                      else bot.step(theirs))
            took = time.perf_counter() - start
            clock[side][0] += took
            clock[side][1] += 1
            if side == 0:
                theirs_took = clock[1][0] / clock[1][1] if clock[1][1] else seconds
                budget = max(seconds / 10, budget + 0.5 * (theirs_took - took))
            ours_game.step_inplace(ours, [action])
            theirs.apply_action(action)
        returns = theirs.returns()
        won += returns[our_seat] > 0
        drawn += returns[our_seat] == 0
        if (g + 1) % 50 == 0:
            progress(f"peers: strength: {won} won, {drawn} drawn of {g + 1}")
    return (100.0 * won / games, 100.0 * drawn / games,
            clock[0][0] / clock[0][1], clock[1][0] / clock[1][1], sims)


# ----- connect four: envs -------------------------------------------------------------------
def vector_run(game, n, steps, parallel):
    """A run of ``steps`` steps of our vector env in self-play (uniform random legal actions);
    ``parallel``: False (1 thread), True (numba's threads) or "auto" (``savanna.threads``)."""
    from savanna.vector_env import SavannaVectorEnv

    venv = SavannaVectorEnv(game, num_envs=n, opponent=None, parallel=parallel)
    holder = {"obs": venv.reset(seed=0)[0]}
    streams = make_streams(0, n)
    actions = np.zeros(n, np.int64)

    def run():
        for _ in range(steps):
            random_legal(holder["obs"]["action_mask"], streams, actions)
            holder["obs"] = venv.step(actions)[0]

    return run


def single_env_self_play(game, steps):
    from savanna.env import SavannaEnv

    env = SavannaEnv(game, opponent=None)
    holder = [env.reset(seed=0)[0]]
    uniforms = np.random.default_rng(0).random(steps).tolist()

    def run():  # Gymnasium's loop: the mask travels in the observation
        obs = holder[0]
        for u in uniforms:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, _, _ = env.step(int(legal[int(u * len(legal))]))
            if terminated:
                obs = env.reset()[0]
        holder[0] = obs

    return Run(run, steps)


def aec_steps(env, steps):
    """Steps/s of a PettingZoo AEC env under uniform random legal actions (its own loop).
    The uniforms are drawn beforehand, here and in ``single_env_self_play``, so that both
    loops time the env rather than numpy's random generator."""
    env.reset(seed=0)
    uniforms = np.random.default_rng(0).random(steps).tolist()

    def run():
        done = 0
        while done < steps:
            if not env.agents:
                env.reset()
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(uniforms[done] * len(legal))]))
            done += 1

    return Run(run, steps)


def pettingzoo_connect_four(steps):
    try:
        import pettingzoo  # noqa: F401
    except ImportError as err:
        raise Skipped(f"PettingZoo is not installed ({err}): pip install '.[interop]'") from None
    try:
        import pygame  # noqa: F401
    except ImportError:  # only drawing uses it
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return aec_steps(connect_four_v3.env(), steps)


# ----- under load ---------------------------------------------------------------------------
BUSY = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    pass\n"


@contextlib.contextmanager
def busy_neighbour(on=True):
    """A process spinning on one core for the duration (nothing when ``on`` is false); it
    also stops by itself if this process dies."""
    if not on:
        yield
        return
    busy = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        time.sleep(0.5)  # let it start spinning
        yield
    finally:
        busy.kill()
        busy.wait()


SETTINGS = {"1": "1 thread", "static": "2 threads, parallel=True (fixed)",
            "adaptive": "adaptive 1-2 threads, parallel=\"auto\" (savanna.threads)"}


def under_load(quick, progress=print):
    """Rows of connect four's 2-thread paths (parallel playouts, vector env step) against
    their 1-thread path, idle and beside a busy process that this function starts: for each
    path and load, the three settings are timed in turn within every repeat."""
    game = make_game(C4_GAME)
    game.warmup()
    d = game.drivers
    kernels = {"1": d.random_playouts, "static": d.random_playouts_parallel,
               "adaptive": threads.adaptive(d.random_playouts, d.random_playouts_parallel)}
    envs = {"1": False, "static": True, "adaptive": "auto"}
    games, calls, steps, repeats = (500, 4, 20, 5) if quick else (2000, 10, 100, 9)
    rows = []
    for load in ("idle", "load"):
        where = "beside a busy process" if load == "load" else "idle"
        progress(f"peers: under load: {where}")
        with busy_neighbour(load == "load"):
            playouts = {k: (playouts_run(game, games, calls, kernel), games * calls)
                        for k, kernel in kernels.items()}
            for k, rate in interleaved_rates(playouts, repeats).items():
                rows.append(Row(f"playouts_{load}_{k}", f"playouts, {SETTINGS[k]}, {where}",
                                rate, "games/s"))
            vector = {k: (vector_run(C4_GAME, PGX_N, steps, parallel), PGX_N * steps)
                      for k, parallel in envs.items()}
            for k, rate in interleaved_rates(vector, repeats).items():
                rows.append(Row(f"env_{load}_{k}", f"vector env n={PGX_N}, {SETTINGS[k]}, "
                                f"{where}", rate, "env-steps/s"))
    return rows


def playouts_run(game, n, calls, kernel):
    """A run of ``calls`` calls of a playout loop (``kernel(s, streams, totals, plies)``:
    serial, parallel or adaptive) on ``n`` fresh games each."""
    start = game.init(n, rng=0)
    totals = np.zeros((n, game.num_players), np.float32)
    plies = np.zeros(n, np.int64)

    def run():
        for c in range(calls):
            kernel(start.copy(), make_streams(c, n), totals, plies)

    return run


# ----- Zèbres: MCTS ------------------------------------------------------------------------
def ours_mcts(sims, repeats):
    from savanna.agents.play.mcts import MCTSAgent

    game = make_game(GAME)
    game.warmup()
    root, _ = search_position(game)
    agent = MCTSAgent(sims=sims, c=UCT_C, rollouts=1)
    rng = np.random.default_rng(0)
    return spread_rate(lambda: agent.search(game, root, rng), sims, repeats)


def _openspiel_state(actions):
    _pyspiel()
    from savanna.interop import openspiel

    game = openspiel.load(GAME)
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return game, state


def openspiel_python_mcts(sims, repeats, actions):
    game, state = _openspiel_state(actions)
    from open_spiel.python.algorithms import mcts

    bot = mcts.MCTSBot(game, UCT_C, sims, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       solve=False, random_state=np.random.RandomState(0))
    return spread_rate(lambda: bot.mcts_search(state), sims, repeats)


def openspiel_cpp_mcts(sims, repeats, actions):
    """Run in this process: the child side of ``openspiel_cpp_mcts_isolated``."""
    import pyspiel

    game, state = _openspiel_state(actions)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)  # keep a reference: the bot does not
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, sims, 1 << 12, False, 0, False)
    return spread_rate(lambda: bot.step(state), sims, repeats)


def openspiel_cpp_mcts_isolated(sims, repeats, actions):
    """The C++ bot's rate, measured in a child process so that a crash skips the row."""
    _openspiel_state(actions)  # a missing OpenSpiel is reported here, not as a crash
    code = ("import sys; from savanna.benchmarks.peers import openspiel_cpp_mcts; "
            f"print(*openspiel_cpp_mcts({sims}, {repeats}, {actions!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent)
    if done.returncode != 0:
        how = (f"signal {-done.returncode}" if done.returncode < 0
               else (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1])
        raise Skipped(f"pyspiel.MCTSBot crashed on the Python game ({how}) in open_spiel "
                      f"{_version('open_spiel')}")
    return Rate(*map(float, done.stdout.strip().splitlines()[-1].split()))


# ----- Zèbres: PPO --------------------------------------------------------------------------
PPO_SETTINGS = dict(num_envs=256, rollout_len=32, epochs=2, minibatches=4, hidden=(128, 128))


def _update_rate(update, steps_done, updates):
    """``Rate`` of env-steps/s over ``updates`` timed updates, after one warm-up update."""
    update()  # warm-up: compiles the kernels, allocates the buffers
    rates = []
    for _ in range(updates):
        before, start = steps_done(), time.perf_counter()
        update()
        rates.append((steps_done() - before) / (time.perf_counter() - start))
    return Rate(min(rates), statistics.median(rates), max(rates))


def ours_ppo(updates, torch_threads, workers=1):
    from savanna.agents.models.ppo_config import PPOConfig
    from savanna.agents.training.ppo import Trainer

    cfg = PPOConfig(game=GAME, seed=0, opponents={"random": 1.0},
                    threads=torch_threads, workers=workers,
                    num_envs=PPO_SETTINGS["num_envs"], rollout_len=PPO_SETTINGS["rollout_len"],
                    epochs=PPO_SETTINGS["epochs"], minibatches=PPO_SETTINGS["minibatches"],
                    hidden=PPO_SETTINGS["hidden"], steps=10**9)
    trainer = Trainer(cfg)
    try:
        return _update_rate(trainer.step, lambda: trainer.global_step, updates)
    finally:
        trainer.close()


def maskable_ppo(updates, torch_threads):
    try:
        import torch
        from sb3_contrib import MaskablePPO

        from savanna.interop.sb3 import SB3VecEnv
    except ImportError as err:
        raise Skipped(f"sb3-contrib is not installed ({err}): pip install '.[interop]'") from None
    torch.set_num_threads(torch_threads)
    n, t = PPO_SETTINGS["num_envs"], PPO_SETTINGS["rollout_len"]
    envs = SB3VecEnv(GAME, num_envs=n)  # serial game step, as the Trainer's BatchPlay
    envs.seed(0)
    hidden = list(PPO_SETTINGS["hidden"])
    model = MaskablePPO("MlpPolicy", envs, n_steps=t, n_epochs=PPO_SETTINGS["epochs"],
                        batch_size=n * t // PPO_SETTINGS["minibatches"], seed=0, device="cpu",
                        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden},
                                       "activation_fn": torch.nn.ReLU})
    first = [True]

    def update():  # one rollout and its update
        model.learn(n * t, reset_num_timesteps=first[0])
        first[0] = False

    return _update_rate(update, lambda: model.num_timesteps, updates)


# ----- pgx --------------------------------------------------------------------------------
PGX_N = 1024


def pgx_connect_four(steps):
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError as err:
        raise Skipped(f"pgx is not installed ({err}): pip install '.[bench-peers]'") from None
    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state, key):
        def one(state, key):
            pick, reset = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -1e9)
            actions = jax.random.categorical(pick, logits)
            return step(state, actions, jax.random.split(reset, PGX_N)), None

        return jax.lax.scan(one, state, jax.random.split(key, steps))[0]

    holder = {"state": init(jax.random.split(jax.random.PRNGKey(0), PGX_N)),
              "key": jax.random.PRNGKey(1)}

    def run():
        holder["key"], key = jax.random.split(holder["key"])
        holder["state"] = play(holder["state"], key)
        jax.block_until_ready(holder["state"])

    return Run(run, PGX_N * steps)


# ----- the run ----------------------------------------------------------------------------
def _version(package):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


class Row(NamedTuple):
    """One measured row: ``rate`` is None when skipped (``note`` says why)."""

    key: str
    what: str
    rate: Rate | None
    unit: str
    note: str = ""


def plan(quick, progress=print):
    """``[(comparison, unit, [(key, what, thunk)] or a function returning measured rows)]``:
    a thunk returns a ``Run`` (timed in turn with the comparison's other runs), a ``Rate`` or
    ``(Rate, note)``, or raises ``Skipped``."""
    repeats = 3 if quick else 7
    sims = 500 if quick else 2000
    scale = 0.1 if quick else 1.0
    torch_threads = 1
    _, actions = search_position(make_game(GAME))
    games = int(STRENGTH_GAMES * scale)
    n = int(100_000 * scale)
    steps = int(200 * scale)

    def strength():
        won, drawn, ours_s, theirs_s, sims = c4_strength(games, MOVE_SECONDS, progress)
        return Rate(won, won, won), (f"{games} games, seats alternating; {drawn:.1f}% drawn; "
                                     f"seconds per move: ours {ours_s:.4f}, OpenSpiel "
                                     f"{theirs_s:.4f} ({sims} sims)")

    return [
        ("c4 playouts", "games/s", [
            ("ours", "Savanna Game.random_playouts, serial, 1 thread", lambda: c4_playouts(n)),
            ("bare", "bare numba loop on the same bitboards (practical limit)",
             lambda: c4_bare(n)),
            ("os_bots", "OpenSpiel C++ evaluate_bots, 2 uniform random bots",
             lambda: c4_openspiel_bots(n // 20)),  # (its rollout evaluator has no
            # Python entry point: evaluate_bots is OpenSpiel's C++ random play from Python)
        ]),
        ("c4 MCTS", "simulations/s", [
            ("ours", f"Savanna MCTS (UCT, numba), {sims} sims, empty board",
             lambda: c4_mcts(sims)),
            ("os_cpp", f"OpenSpiel MCTSBot (C++), {sims} sims, empty board",
             lambda: c4_openspiel_mcts(sims)),
        ]),
        ("c4 strength", "% won", [
            ("won", f"Savanna MCTS vs OpenSpiel C++ MCTSBot, ~{MOVE_SECONDS:g} s per move each",
             strength),
        ]),
        ("c4 vector env", "env-steps/s", [
            ("ours_1", f"Savanna vector env (self-play), n={PGX_N}, 1 thread",
             lambda: Run(vector_run(C4_GAME, PGX_N, steps, False), PGX_N * steps)),
            ("ours_static", (f"Savanna vector env (self-play), n={PGX_N}, 2 threads "
                             "(parallel=True)"),
             lambda: Run(vector_run(C4_GAME, PGX_N, steps, True), PGX_N * steps)),
            ("ours_adaptive", f"Savanna vector env (self-play), n={PGX_N}, adaptive 1-2 threads",
             lambda: Run(vector_run(C4_GAME, PGX_N, steps, "auto"), PGX_N * steps)),
            ("pgx", f"pgx connect_four (CPU, XLA threads), n={PGX_N}",
             lambda: pgx_connect_four(steps)),
        ]),
        ("c4 single env", "steps/s", [
            ("ours", "Savanna Gymnasium env (self-play)",
             lambda: single_env_self_play(C4_GAME, n // 4)),
            ("pettingzoo", "PettingZoo connect_four_v3 (AEC)",
             lambda: pettingzoo_connect_four(n // 20)),
        ]),
        ("under load", "games/s or env-steps/s", lambda: under_load(quick, progress)),
        ("Zèbres MCTS", "simulations/s", [
            ("ours", f"Savanna MCTS (UCT, numba), {sims} sims", lambda: ours_mcts(sims, repeats)),
            ("os_python", f"OpenSpiel MCTSBot (Python), {sims} sims",
             lambda: openspiel_python_mcts(sims, max(1, repeats // 3), actions)),
            ("os_cpp", f"OpenSpiel MCTSBot (C++), {sims} sims",
             lambda: openspiel_cpp_mcts_isolated(sims, max(1, repeats // 3), actions)),
        ]),
        ("Zèbres PPO", "env-steps/s", [
            ("ours", f"Savanna PPO, {torch_threads} torch thread",
             lambda: ours_ppo(repeats, torch_threads)),
            ("sb3", f"sb3-contrib MaskablePPO, {torch_threads} torch thread",
             lambda: maskable_ppo(repeats, torch_threads)),
            ("ours_2", f"Savanna PPO, 2 worker processes of {torch_threads} torch thread",
             lambda: ours_ppo(repeats, torch_threads, workers=2)),
            ("sb3_2", "sb3-contrib MaskablePPO, 2 torch threads",
             lambda: maskable_ppo(repeats, 2)),
        ]),
        ("Zèbres env API", "steps/s", [
            ("ours", "Savanna Gymnasium env (self-play)",
             lambda: single_env_self_play(GAME, n // 5)),
            ("aec", "Savanna's own PettingZoo AEC wrapper (not a PettingZoo game)",
             lambda: zebres_aec(n // 5)),
        ]),
    ]


def zebres_aec(steps):
    try:
        from savanna.interop.pettingzoo import aec_env
    except ImportError as err:
        raise Skipped(f"PettingZoo is not installed ({err}): pip install '.[interop]'") from None
    return aec_steps(aec_env(GAME), steps)


def measure(quick=False, progress=print, only=None):
    """Every comparison (or those named in ``only``): ``[(comparison, [Row])]``. Rows timed in
    turn get more repeats: each is short, and on a shared machine a repeat can lose a time
    slice to another process."""
    repeats = 3 if quick else 15
    results = []
    for comparison, unit, rows in plan(quick, progress):
        if only is not None and comparison not in only:
            continue
        if callable(rows):  # a group measured together, in turn: its rows come out measured
            results.append((comparison, rows()))
            continue
        measured, runs = [], {}
        for key, what, run in rows:
            progress(f"peers: {comparison}: {what}")
            try:
                out = run()
            except Skipped as why:
                progress(f"peers: skipped: {why}")
                measured.append(Row(key, what, None, unit, f"skipped: {why}"))
                continue
            if isinstance(out, Run):
                runs[key] = out
                out = None  # timed below, in turn with the comparison's other runs
            rate, note = (out, "") if out is None or isinstance(out, Rate) else out
            measured.append(Row(key, what, rate, unit, note))
        if runs:
            progress(f"peers: {comparison}: timing {', '.join(runs)} in turn")
            rates = interleaved_rates(runs, repeats)
            measured = [r._replace(rate=rates[r.key]) if r.key in rates else r
                        for r in measured]
        results.append((comparison, measured))
    return results


def ratios(results):
    """``[(comparison, "numerator / denominator", ratio of medians or a % itself, target)]``
    for every pair of ``RATIOS`` whose rows ran (the fastest denominator that ran)."""
    out = []
    for comparison, rows in results:
        ran = {r.key: r for r in rows if r.rate is not None}
        for name, top, bottoms, target in RATIOS:
            if name != comparison or top not in ran:
                continue
            if not bottoms:
                out.append((comparison, ran[top].what, ran[top].rate.median, target))
                continue
            peers = [ran[b] for b in bottoms if b in ran]
            if peers:
                peer = max(peers, key=lambda r: r.rate.median)
                out.append((comparison, f"{ran[top].what} / {peer.what}",
                            ran[top].rate.median / peer.rate.median, target))
    return out


def table(results):
    lines = ["| comparison | measurement | min | median | max | unit | note |",
             "|---|---|---:|---:|---:|---|---|"]
    for comparison, rows in results:
        for row in rows:
            if row.rate is None:
                lines.append(f"| {comparison} | {row.what} | — | — | — | {row.unit} | "
                             f"{row.note} |")
                continue
            r = row.rate
            flag = (f"**spread {100 * r.spread:.0f}% > {100 * SPREAD_FLAG:.0f}%**"
                    if r.spread > SPREAD_FLAG else "")
            note = "; ".join(x for x in (flag, row.note) if x)
            lines.append(f"| {comparison} | {row.what} | {r.min:,.0f} | {r.median:,.0f} | "
                         f"{r.max:,.0f} | {row.unit} | {note} |")
    lines += ["", "| ratio (medians) | value | target |", "|---|---:|---|"]
    for comparison, names, value, target in ratios(results):
        shown = f"{value:.1f}%" if " / " not in names else f"{value:,.2f}×"
        verdict = "" if target is None else (
            f"≥ {target:g}{'%' if ' / ' not in names else '×'} "
            + ("met" if value >= target else "NOT met"))
        lines.append(f"| {comparison}: {names} | {shown} | {verdict} |")
    return "\n".join(lines)


def chart(results, path=CHART):
    """A bar chart per comparison (log scale from a decade below the smallest bar, so bar
    heights compare), Savanna in green, the ratio in each title; returns the path."""
    import math
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [(c, [r for r in rows if r.rate is not None]) for c, rows in results]
    groups = [(c, rows) for c, rows in groups if rows]
    ratio_of = {}
    for c, _, value, _ in ratios(results):
        ratio_of.setdefault(c, value)  # the first ratio of each comparison in the title
    fig, axes = plt.subplots(1, len(groups), figsize=(3.8 * len(groups), 4.6), squeeze=False)
    for ax, (comparison, rows) in zip(axes[0], groups):
        rates = [r.rate.median for r in rows]
        ax.bar(range(len(rows)), rates,
               yerr=[[r.rate.median - r.rate.min for r in rows],
                     [r.rate.max - r.rate.median for r in rows]],
               color=["tab:green" if r.what.startswith("Savanna") else "tab:grey"
                      for r in rows])
        ax.set_yscale("log")
        ax.set_ylim(10 ** (math.floor(math.log10(min(rates))) - 1), max(rates) * 3)
        ax.set_xticks(range(len(rows)), [textwrap.fill(r.what, 20) for r in rows], fontsize=5)
        for x, rate in enumerate(rates):
            ax.annotate(f"{rate:,.0f}", (x, rate), ha="center", va="bottom", fontsize=7)
        ratio = ratio_of.get(comparison)
        ax.set_title(comparison + ("" if ratio is None else f" ({ratio:,.1f})"), fontsize=9)
        ax.set_ylabel(rows[0].unit)
    fig.suptitle("Savanna (green) and its peers, one run (medians; bars: min to max)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def versions():
    return ", ".join(f"{p} {_version(p)}" for p in
                     ("open_spiel", "pettingzoo", "stable_baselines3", "sb3_contrib", "pgx", "jax"))


def section(results, when, command, where):
    """The RESULTS.md section of one run."""
    return (f"## peers — side by side\n\n{when}; `{command}`; {where}; {versions()}\n\n"
            f"See `benchmarks/peers.py` for what each row measures.\n\n"
            + table(results) + f"\n\n![Savanna and its peers]({CHART.name})\n")
