"""How numba's threading layers and thread counts behave beside one busy process.

    python -m savanna.benchmarks.threading_load [--quick]

For each threading layer available here (``NUMBA_THREADING_LAYER``: workqueue, omp, tbb) and
parallel chunk size (``numba.set_parallel_chunksize``: 0 = static split, 1 = dynamic), a child
process measures the rows of ``savanna.benchmarks.peers.under_load``: connect four's random
playouts and vector env step (n = 1024, self-play) on 1 thread, on 2 threads as today
(``parallel=True``) and with ``savanna.threads``' adaptive choice, idle and with a busy process
(``while True: pass``) beside. The figures that matter are the ratios to 1 thread in each
line, measured side by side.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("workqueue", "omp", "tbb")
CHUNKSIZES = (0, 1)


def child(chunksize, quick):
    """In a child process: the medians of ``peers.under_load`` (1 thread, 2 threads static,
    adaptive; idle and beside a busy process) and the threading layer in use."""
    import numba

    from savanna.benchmarks.peers import under_load

    numba.set_parallel_chunksize(chunksize)
    rates = {row.key: row.rate.median for row in under_load(quick, progress=lambda m: None)}
    return {"layer": numba.threading_layer(), "rates": rates}


def main(quick=False):
    for layer in LAYERS:
        for chunksize in CHUNKSIZES:
            env = {**os.environ, "NUMBA_THREADING_LAYER": layer}
            code = (f"import json; from savanna.benchmarks.threading_load import child; "
                    f"print(json.dumps(child({chunksize}, {quick})))")
            done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                                  capture_output=True, text=True)
            if done.returncode:
                print(f"{layer}: not available ({done.stderr.strip().splitlines()[-1]})")
                break
            r = json.loads(done.stdout.strip().splitlines()[-1])["rates"]
            for path in ("playouts", "env"):
                line = "; ".join(
                    f"{load}: 1 thread {r[f'{path}_{load}_1']:,.0f}, 2 static "
                    f"{r[f'{path}_{load}_static'] / r[f'{path}_{load}_1']:.2f}x, adaptive "
                    f"{r[f'{path}_{load}_adaptive'] / r[f'{path}_{load}_1']:.2f}x"
                    for load in ("idle", "load"))
                print(f"{layer:9} chunksize {chunksize} {path:8} {line}", flush=True)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
