"""How numba's threading layers and thread counts behave beside one busy process (issue #16).

    python -m benchmarks.threading_load

For each threading layer available here (``NUMBA_THREADING_LAYER``: workqueue, omp, tbb) and
parallel chunk size (``numba.set_parallel_chunksize``: 0 = static split, else dynamic), a child
process measures connect four's vector env step (n = 1024, self-play) and parallel random
playouts on 1 and 2 threads, idle and with a busy process (``while True: pass``) beside. The
figure that matters is the ratio 2 threads / 1 thread in each line, measured side by side.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.throughput import spread_rate

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("workqueue", "omp", "tbb")
CHUNKSIZES = (0, 1)


def child(chunksize, repeats=7):
    """In a child process: ``{"layer", "rates": {(load, path, threads): median}}``."""
    import numba

    from benchmarks.peers import busy_neighbour, vector_rate
    from savanna.registry import make_game

    game = make_game("connect_four")
    game.warmup()
    numba.set_parallel_chunksize(chunksize)
    start = game.init(4096, rng=0)
    out = {}
    for load in ("idle", "busy"):
        with busy_neighbour(load == "busy"):
            for threads in (1, 2):
                numba.set_num_threads(threads)
                out[f"{load} env {threads}"] = vector_rate(
                    "connect_four", 1024, 50, repeats, parallel=True).median
                out[f"{load} playouts {threads}"] = spread_rate(
                    lambda: game.random_playouts(start.copy(), rng=1, parallel=True),
                    len(start), repeats).median
    return {"layer": numba.threading_layer(), "rates": out}


def main():
    for layer in LAYERS:
        for chunksize in CHUNKSIZES:
            env = {**os.environ, "NUMBA_THREADING_LAYER": layer}
            code = (f"import json; from benchmarks.threading_load import child; "
                    f"print(json.dumps(child({chunksize})))")
            done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                                  capture_output=True, text=True)
            if done.returncode:
                print(f"{layer}: not available ({done.stderr.strip().splitlines()[-1]})")
                break
            rates = json.loads(done.stdout.strip().splitlines()[-1])["rates"]
            for path in ("env", "playouts"):
                line = ", ".join(
                    f"{load} {rates[f'{load} {path} 1']:,.0f} -> {rates[f'{load} {path} 2']:,.0f}"
                    f" ({rates[f'{load} {path} 2'] / rates[f'{load} {path} 1']:.2f}x)"
                    for load in ("idle", "busy"))
                print(f"{layer:9} chunksize {chunksize} {path:8}: 1 -> 2 threads: {line}",
                      flush=True)


if __name__ == "__main__":
    main()
