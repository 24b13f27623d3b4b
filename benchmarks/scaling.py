"""The vector env's step on one and two threads, its Python share, and the adaptive thread
choice beside a busy process (issue #23): ``python -m savanna.benchmarks --scaling``.

* **threads**: each game's vector env at n = 4096 (random opponent, uniform random legal
  actions, autoreset, ``copy=True``; the rate of ``step`` itself, the serial policy between
  steps untimed) on 1 thread (``parallel=False``), on 2 threads (``parallel=True``), 2 threads
  with ``copy=False``, and adaptive (``parallel="auto"``), timed in turn within every repeat
  (``interleaved_rates``).
* **Python share**: within the same runs, the share of ``step``'s wall time spent outside its
  one compiled call (argument checks, output arrays, the dict): what Amdahl's law keeps
  serial. ``amdahl`` projects 16 cores from it and from the measured 2-thread speed-up.
* **under load**: ``peers.under_load`` (connect four's playouts and vector env at n = 1024:
  1 thread, 2 threads fixed, adaptive; idle and beside a busy process it starts), ``runs``
  times, each in a fresh process (a fresh adaptive choice, as a user's new process has); the
  ratios to 1 thread per run and their median.

Amdahl on paper: a step is one parallel region (the kernel) and the Python around it, whose
share ``s`` of the 1-thread step is measured; with the region split perfectly, ``c`` cores
give ``1 / (s + (1 - s) / c)``: s = 2% gives 12.3x on 16 cores, s = 5% 9.1x, s = 10% 6.4x. The
region is split into 64 chunks of 64 games at n = 4096 (``_drivers.CHUNKS``), 4 per thread on
16 cores, so the split itself is even; what the formula leaves out is the fork/join of each
call (microseconds), the memory traffic of the rows written (Zèbres: 4096 x 866 bytes of
observation and mask per step, twice with ``copy=True``) and games of uneven length within a
chunk. The second projection takes the serial share that the measured 2-thread speed-up
implies (``2 / speed-up - 1``), which folds those in; beside other work it means nothing
(a 2-thread step slower than 1 thread is clipped to a serial share of 1).
"""
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

from savanna.benchmarks.throughput import interleaved_rates, measured_configs, random_legal
from savanna.registry import make_game
from savanna.rng import make_streams
from savanna.vector_env import SavannaVectorEnv

ROOT = Path(__file__).resolve().parent.parent
GAMES = dict(measured_configs())  # every registered game, with its fewest players
N = 4096
# row key -> (what, vector env settings)
SETTINGS = {
    "1": ("1 thread (parallel=False)", {"parallel": False}),
    "2": ("2 threads (parallel=True)", {"parallel": True}),
    "2_nocopy": ("2 threads, copy=False", {"parallel": True, "copy": False}),
    "auto": ('adaptive (parallel="auto")', {"parallel": "auto"}),
}


class TimedKernel:
    """The env's step kernel, with the seconds spent inside it added up."""

    def __init__(self, kernel):
        self.kernel, self.seconds = kernel, 0.0

    def __call__(self, *args):
        start = time.perf_counter()
        try:
            return self.kernel(*args)
        finally:
            self.seconds += time.perf_counter() - start


def vector_run(game, steps, settings, shares):
    """A run of ``steps`` steps at n = N, timed on ``step`` alone (the random policy between
    steps is the user's, serial, and left out); appends to ``shares`` the share of the run's
    step time spent outside the kernel and those seconds per step."""
    venv = SavannaVectorEnv(game, num_envs=N, **settings)
    kernel = venv._kernel = TimedKernel(venv._kernel)
    holder = {"obs": venv.reset(seed=0)[0]}
    streams = make_streams(0, N)
    actions = np.zeros(N, np.int64)

    def run():
        kernel.seconds, stepping = 0.0, 0.0
        for _ in range(steps):
            random_legal(holder["obs"]["action_mask"], streams, actions)
            start = time.perf_counter()
            holder["obs"] = venv.step(actions)[0]
            stepping += time.perf_counter() - start
        shares.append((1.0 - kernel.seconds / stepping, (stepping - kernel.seconds) / steps))
        return stepping

    return run


def threads_rows(name, repeats, steps, progress=print):
    """``[(what, value, unit)]`` of one game: the env-steps/s of every setting, the Python
    share of a step, the ratios and the Amdahl projection."""
    game = make_game(name, **GAMES[name])
    progress(f"scaling: {name} at n={N}")
    shares = {key: [] for key in SETTINGS}
    runs = {key: (vector_run(game, steps, settings, shares[key]), N * steps)
            for key, (_, settings) in SETTINGS.items()}
    rates = interleaved_rates(runs, repeats)
    rows = [(f"{name}: vector env n={N}, {what}", rates[key].median, "env-steps/s")
            for key, (what, _) in SETTINGS.items()]
    speedup = rates["2"].median / rates["1"].median
    share_1, share_2 = (statistics.median(s for s, _ in shares[k][1:])  # [0]: the warm-up
                        for k in ("1", "2"))
    python_2 = statistics.median(seconds for _, seconds in shares["2"][1:])
    rows += [(f"{name}: ratio 2 threads / 1 thread", speedup, "x"),
             (f"{name}: ratio adaptive / 2 threads", rates["auto"].median / rates["2"].median,
              "x"),
             (f"{name}: ratio copy=False / copy=True, 2 threads",
              rates["2_nocopy"].median / rates["2"].median, "x"),
             (f"{name}: Python share of a step, 1 thread", 100 * share_1, "%"),
             (f"{name}: Python share of a step, 2 threads", 100 * share_2, "%"),
             (f"{name}: Python side of a step, 2 threads", 1e6 * python_2, "us")]
    rows += [(f"{name}: Amdahl, 16 cores, {basis}", amdahl(serial, 16), "x")
             for basis, serial in (("serial share = Python share at 1 thread", share_1),
                                   ("serial share from the 2-thread speed-up",
                                    serial_share(speedup)))]
    return rows


def amdahl(serial, cores):
    """Amdahl's law: the speed-up on ``cores`` of work whose share ``serial`` stays serial."""
    return 1.0 / (serial + (1.0 - serial) / cores)


def serial_share(speedup_2):
    """The serial share that Amdahl's law gives for a measured 2-core speed-up (clipped to
    0..1: a speed-up above 2 or below 1 is noise or a slower parallel path)."""
    return min(1.0, max(0.0, 2.0 / speedup_2 - 1.0))


def under_load_child(quick):
    """In a child process: the medians of ``peers.under_load``, by row key."""
    from savanna.benchmarks.peers import under_load

    return {row.key: row.rate.median for row in under_load(quick, progress=lambda m: None)}


def under_load_rows(runs, quick, progress=print):
    """``runs`` fresh processes of ``peers.under_load``: per path and load, each setting's
    ratio to 1 thread in every run and their median, plus adaptive against the best fixed
    setting idle."""
    ratios = {}
    for r in range(runs):
        progress(f"scaling: under load, run {r + 1} of {runs}")
        code = (f"import json; from savanna.benchmarks.scaling import under_load_child; "
                f"print(json.dumps(under_load_child({quick})))")
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        rates = json.loads(done.stdout.strip().splitlines()[-1])
        for path in ("playouts", "env"):
            for load in ("idle", "load"):
                one = rates[f"{path}_{load}_1"]
                for setting in ("static", "adaptive"):
                    key = (path, load, f"{setting} / 1 thread")
                    ratios.setdefault(key, []).append(rates[f"{path}_{load}_{setting}"] / one)
            best = max(rates[f"{path}_idle_1"], rates[f"{path}_idle_static"])
            key = (path, "idle", "adaptive / best fixed")
            ratios.setdefault(key, []).append(rates[f"{path}_idle_adaptive"] / best)
    names = {"playouts": "connect four playouts (2,000 games)",
             "env": "connect four vector env n=1024 (self-play)"}
    loads = {"idle": "idle", "load": "beside a busy process"}
    return [(f"{names[path]}, {loads[load]}: {what} (runs: "
             + ", ".join(f"{v:.2f}" for v in values) + ")", statistics.median(values), "x")
            for (path, load, what), values in ratios.items()]


def measure(quick=False, progress=print):
    """Every row: ``[(what, value, unit)]``."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        raise SystemExit("the scaling benchmark needs numba to have 2 threads or more")
    repeats, steps, runs = (3, 10, 1) if quick else (15, 50, 5)
    rows = []
    numba.set_num_threads(2)   # "2 threads" on a machine with more cores too
    try:
        for name in GAMES:
            rows += threads_rows(name, repeats, steps, progress)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return rows + under_load_rows(runs, quick, progress)


def neighbours():
    """What else runs on this machine now: the load average and the other processes that
    use more than 10% of a core (``ps``), for the record."""
    import os

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    try:
        ps = subprocess.run(["ps", "-eo", "pcpu=,pid=,args=", "--sort=-pcpu"],
                            capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return f"load average {load}"
    busy = [" ".join(line.split()[2:])[:60] + f" ({line.split()[0]}%)"
            for line in ps.splitlines()
            if line.split() and float(line.split()[0]) > 10 and int(line.split()[1]) != os.getpid()]
    return f"load average {load}; other processes above 10% of a core: " + (
        "; ".join(busy) or "none")
