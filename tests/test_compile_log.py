"""What numba compiles (``savanna.compile_log``) and how often (``savanna.binding``'s
``one_signature``): a first compilation says so once, a cached call says nothing, and a kernel
called with literal, narrow and wide integers compiles once."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Two cheap savanna kernels compiled from Python: the notice comes with the first only.
TWO_KERNELS = """
import numpy as np
from savanna.binding import always_valid
from savanna.bits import popcount
always_valid(np.zeros(1), 0, np.zeros(1))
popcount(np.uint64(3))
"""

# A callee called from jitted code with a literal, an int16 and an int64 index.
CALLS = """
import sys
import numpy as np
from numba import njit
from savanna.binding import one_signature
from savanna.compile_log import CompileLog

@njit
def callee(out, i):
    out[i] += 1

@njit
def caller(out):
    small = np.int16(1)
    callee(out, 0)
    callee(out, small)
    callee(out, np.int64(2))

one_signature(sys.modules[__name__])
out = np.zeros(3, np.int64)
with CompileLog() as log:
    caller(out)
print(out.tolist(), log.signatures["__main__.callee"], len(callee.signatures))
"""


def _run(code, cache):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    return done.stdout, done.stderr


def test_the_first_compiling_call_says_so_once_and_a_cached_call_says_nothing(tmp_path):
    _, cold = _run(TWO_KERNELS, tmp_path)
    assert cold.count("savanna: compiling") == 1, cold
    assert "always_valid" in cold and str(tmp_path) in cold and "savanna warmup" in cold
    _, warm = _run(TWO_KERNELS, tmp_path)
    assert warm == ""


def test_a_kernel_called_with_literal_narrow_and_wide_integers_compiles_once(tmp_path):
    out, _ = _run(CALLS, tmp_path)
    assert out.split() == ["[1,", "1,", "1]", "1", "1"]
