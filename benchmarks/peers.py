"""Savanna side by side with its peers, in one run: ``python -m benchmarks --peers``.

Four comparisons, each measured in the same process one after the other (medians of repeated
runs after a warm-up, like ``benchmarks.throughput``):

* **MCTS**: our compiled UCT (``agents.mcts.MCTSAgent``) against OpenSpiel's MCTS bots on the
  same Zèbres position (``PLY`` seeded random plies from the start), at equal simulations
  (one random rollout per new leaf, ``c = 1.4``, no solver), in simulations per second.
  OpenSpiel plays the game through ``savanna.interop.openspiel``. Its C++ bot is tried in a
  child process, because ``pyspiel.MCTSBot`` crashes on Python games in some OpenSpiel
  versions (it does in 2.0.2, on OpenSpiel's own ``python_tic_tac_toe`` too).
* **PPO**: our ``agents.ppo.Trainer`` against sb3-contrib's ``MaskablePPO`` on the same
  Zèbres vector env (``savanna.interop.sb3``, learner against the compiled random opponent),
  same envs, rollout length, epochs, minibatches, hidden widths and ReLU, one torch thread
  each (small networks: more threads mostly wait, and on a shared machine far worse), in
  learner env-steps per second end to end (rollout and update). MaskablePPO's ``MlpPolicy``
  has separate policy and value networks (stable-baselines3 2.x has no shared trunk), ours
  shares one trunk.
* **Single env vs PettingZoo AEC**: our Gymnasium env in self-play (one decision per step)
  against ``savanna.interop.pettingzoo`` on Zèbres, uniform random legal decisions, in steps
  per second.
* **pgx** (outside reference, different games): our vector env in self-play at n = 1024 on
  Zèbres (serial kernel, then the parallel one) against pgx's connect-four on CPU at
  n = 1024 (``jit(vmap(step))`` with auto-reset, steps run in a ``lax.scan``), uniform random
  legal actions, env-steps per second. Needs the ``bench-peers`` extra (pgx, jax); skipped
  with a message otherwise.

Ratios divide the first Savanna row by the first peer row that ran.

Every missing optional library skips its rows with the reason; the table, the ratios and a
bar chart (``benchmarks/peers.png``, log scale) go to RESULTS.md.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

from benchmarks.throughput import median_rate, random_legal
from savanna.registry import make_game
from savanna.rng import make_streams

CHART = Path(__file__).with_name("peers.png")
GAME = "zebres"
PLY = 6                     # plies of seeded random play before the searched position
UCT_C = 1.4
TARGETS = {"MCTS": 50.0, "PPO": 4.0}  # acceptance: ours / peer at least this


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


# ----- MCTS -------------------------------------------------------------------------------
def ours_mcts(sims, repeats):
    from agents.mcts import MCTSAgent

    game = make_game(GAME)
    game.warmup()
    root, _ = search_position(game)
    agent = MCTSAgent(sims=sims, c=UCT_C, rollouts=1)
    rng = np.random.default_rng(0)
    return median_rate(lambda: agent.search(game, root, rng), sims, repeats)


def _openspiel_state(actions):
    try:
        import pyspiel  # noqa: F401

        from savanna.interop import openspiel
    except ImportError as err:
        raise Skipped(f"OpenSpiel is not installed ({err}): pip install '.[interop]'") from None
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
    return median_rate(lambda: bot.mcts_search(state), sims, repeats)


def openspiel_cpp_mcts(sims, repeats, actions):
    """Run in this process: the child side of ``openspiel_cpp_mcts_isolated``."""
    import pyspiel

    game, state = _openspiel_state(actions)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)  # keep a reference: the bot does not
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, sims, 1 << 12, False, 0, False)
    return median_rate(lambda: bot.step(state), sims, repeats)


def openspiel_cpp_mcts_isolated(sims, repeats, actions):
    """The C++ bot's rate, measured in a child process so that a crash skips the row."""
    _openspiel_state(actions)  # a missing OpenSpiel is reported here, not as a crash
    code = ("import sys; from benchmarks.peers import openspiel_cpp_mcts; "
            f"print(openspiel_cpp_mcts({sims}, {repeats}, {actions!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent)
    if done.returncode != 0:
        how = (f"signal {-done.returncode}" if done.returncode < 0
               else (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1])
        raise Skipped(f"pyspiel.MCTSBot crashed on the Python game ({how}) in open_spiel "
                      f"{_version('open_spiel')}")
    return float(done.stdout.strip().splitlines()[-1])


# ----- PPO --------------------------------------------------------------------------------
PPO_SETTINGS = dict(num_envs=256, rollout_len=32, epochs=2, minibatches=4, hidden=(128, 128))


def _median_update_rate(update, steps_done, updates):
    """Median env-steps/s over ``updates`` timed updates, after one warm-up update."""
    update()  # warm-up: compiles the kernels, allocates the buffers
    rates = []
    for _ in range(updates):
        before, start = steps_done(), time.perf_counter()
        update()
        rates.append((steps_done() - before) / (time.perf_counter() - start))
    return statistics.median(rates)


def ours_ppo(updates, threads):
    from agents.ppo import PPOConfig, Trainer

    cfg = PPOConfig(game=GAME, seed=0, opponents={"random": 1.0}, threads=threads,
                    num_envs=PPO_SETTINGS["num_envs"], rollout_len=PPO_SETTINGS["rollout_len"],
                    epochs=PPO_SETTINGS["epochs"], minibatches=PPO_SETTINGS["minibatches"],
                    hidden=PPO_SETTINGS["hidden"], steps=10**9)
    trainer = Trainer(cfg)
    return _median_update_rate(trainer.train_update, lambda: trainer.global_step, updates)


def maskable_ppo(updates, threads):
    try:
        import torch
        from sb3_contrib import MaskablePPO

        from savanna.interop.sb3 import SB3VecEnv
    except ImportError as err:
        raise Skipped(f"sb3-contrib is not installed ({err}): pip install '.[interop]'") from None
    torch.set_num_threads(threads)
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

    return _median_update_rate(update, lambda: model.num_timesteps, updates)


# ----- single env vs PettingZoo AEC -------------------------------------------------------
def single_env_self_play(steps, repeats):
    from savanna.env import SavannaEnv

    env = SavannaEnv(GAME, opponent=None)
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def run():
        for _ in range(steps):
            legal = np.flatnonzero(env.action_masks())
            if env.step(int(legal[rng.integers(len(legal))]))[2]:
                env.reset()

    return median_rate(run, steps, repeats)


def pettingzoo_aec(steps, repeats):
    try:
        from savanna.interop.pettingzoo import aec_env
    except ImportError as err:
        raise Skipped(f"PettingZoo is not installed ({err}): pip install '.[interop]'") from None
    env = aec_env(GAME)
    env.reset(seed=0)
    rng = np.random.default_rng(0)

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
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1

    return median_rate(run, steps, repeats)


# ----- pgx --------------------------------------------------------------------------------
PGX_N = 1024


def ours_vector_self_play(steps, repeats, parallel):
    from savanna.vector_env import SavannaVectorEnv

    venv = SavannaVectorEnv(GAME, num_envs=PGX_N, opponent=None, parallel=parallel)
    holder = {"obs": venv.reset(seed=0)[0]}
    streams = make_streams(0, PGX_N)
    actions = np.zeros(PGX_N, np.int64)

    def run():
        for _ in range(steps):
            random_legal(holder["obs"]["action_mask"], streams, actions)
            holder["obs"] = venv.step(actions)[0]

    return median_rate(run, PGX_N * steps, repeats)


def pgx_connect_four(steps, repeats):
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

    return median_rate(run, PGX_N * steps, repeats)


# ----- the run ----------------------------------------------------------------------------
def _version(package):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def measure(quick=False, progress=print):
    """Every comparison: ``[(comparison, [(what, rate or None, unit, note)])]``."""
    repeats = 3 if quick else 7
    sims = 500 if quick else 2000
    threads = 1
    game = make_game(GAME)
    _, actions = search_position(game)
    plan = [
        ("MCTS", "simulations/s", [
            (f"Savanna MCTS (UCT, numba), {sims} sims", lambda: ours_mcts(sims, repeats)),
            (f"OpenSpiel MCTSBot (Python), {sims} sims",
             lambda: openspiel_python_mcts(sims, max(1, repeats // 3), actions)),
            (f"OpenSpiel MCTSBot (C++), {sims} sims",
             lambda: openspiel_cpp_mcts_isolated(sims, max(1, repeats // 3), actions)),
        ]),
        ("PPO", "env-steps/s", [
            (f"Savanna PPO, {threads} torch thread",
             lambda: ours_ppo(repeats, threads)),
            (f"sb3-contrib MaskablePPO, {threads} torch thread",
             lambda: maskable_ppo(repeats, threads)),
        ]),
        ("Env API", "steps/s", [
            ("Savanna Gymnasium env (self-play)",
             lambda: single_env_self_play(2000 if quick else 20000, repeats)),
            ("PettingZoo AEC wrapper", lambda: pettingzoo_aec(2000 if quick else 20000, repeats)),
        ]),
        ("pgx", "env-steps/s", [
            (f"Savanna vector env (self-play), n={PGX_N}, 1 thread",
             lambda: ours_vector_self_play(20 if quick else 200, repeats, False)),
            (f"Savanna vector env (self-play), n={PGX_N}, {numba.config.NUMBA_NUM_THREADS} "
             "threads", lambda: ours_vector_self_play(20 if quick else 200, repeats, True)),
            (f"pgx connect_four (CPU), n={PGX_N}",
             lambda: pgx_connect_four(20 if quick else 200, repeats)),
        ]),
    ]
    results = []
    for comparison, unit, rows in plan:
        measured = []
        for what, run in rows:
            progress(f"peers: {what}")
            try:
                measured.append((what, run(), unit, ""))
            except Skipped as why:
                progress(f"peers: skipped: {why}")
                measured.append((what, None, unit, f"skipped: {why}"))
        results.append((comparison, measured))
    return results


def _pair(rows):
    """The first Savanna row and the first peer row that ran, or None."""
    ours = [r for r in rows if r[0].startswith("Savanna") and r[1] is not None]
    peers = [r for r in rows if not r[0].startswith("Savanna") and r[1] is not None]
    return (ours[0], peers[0]) if ours and peers else None


def ratios(results):
    """``[(comparison, "ours / peer" names, ratio, target or None)]``."""
    out = []
    for comparison, rows in results:
        pair = _pair(rows)
        if pair:
            (ours, rate), (peer, peer_rate) = pair[0][:2], pair[1][:2]
            out.append((comparison, f"{ours} / {peer}", rate / peer_rate,
                        TARGETS.get(comparison)))
    return out


def table(results):
    lines = ["| comparison | measurement | median | unit |", "|---|---|---:|---|"]
    for comparison, rows in results:
        for what, rate, unit, note in rows:
            lines.append(f"| {comparison} | {what} | "
                         + (f"{rate:,.0f} | {unit} |" if rate is not None else f"— | {note} |"))
    lines += ["", "| ratio: Savanna / peer | value | target |", "|---|---:|---|"]
    for comparison, names, value, target in ratios(results):
        verdict = "" if target is None else (f"≥ {target:g}× "
                                             + ("met" if value >= target else "NOT met"))
        lines.append(f"| {comparison}: {names} | {value:,.1f}× | {verdict} |")
    return "\n".join(lines)


def chart(results, path=CHART):
    """A bar chart per comparison (log scale from a decade below the smallest bar, so bar
    heights compare), Savanna in green, the ratio in each title; returns the path."""
    import math
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [(c, [r for r in rows if r[1] is not None]) for c, rows in results]
    groups = [(c, rows) for c, rows in groups if rows]
    ratio_of = {c: value for c, _, value, _ in ratios(results)}
    fig, axes = plt.subplots(1, len(groups), figsize=(3.8 * len(groups), 4.6), squeeze=False)
    for ax, (comparison, rows) in zip(axes[0], groups):
        rates = [r[1] for r in rows]
        ax.bar(range(len(rows)), rates,
               color=["tab:green" if r[0].startswith("Savanna") else "tab:grey" for r in rows])
        ax.set_yscale("log")
        ax.set_ylim(10 ** (math.floor(math.log10(min(rates))) - 1), max(rates) * 3)
        ax.set_xticks(range(len(rows)), [textwrap.fill(r[0], 20) for r in rows], fontsize=6)
        for x, rate in enumerate(rates):
            ax.annotate(f"{rate:,.0f}", (x, rate), ha="center", va="bottom", fontsize=7)
        ratio = ratio_of.get(comparison)
        ax.set_title(comparison + ("" if ratio is None else f" (Savanna {ratio:,.1f}×)"))
        ax.set_ylabel(rows[0][2])
    fig.suptitle("Savanna (green) and its peers, one run")
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
            f"Zèbres for our rows; see `benchmarks/peers.py` for what each row measures.\n\n"
            + table(results) + f"\n\n![Savanna and its peers]({CHART.name})\n")
