"""``savanna.compile_ahead``: a first compiling call starts one helper per game, which compiles
kernels of exactly the types the shared loops look up, so that a later compilation loads them.

Each check runs in child processes on a fresh numba cache, with the toy game of
``tests/toy_game`` (small kernels, quick to compile); ``SAVANNA_COMPILE_AHEAD`` is set in each
child, so that the suite's own setting does not matter.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy_game"

FIRST_ENV_CALL = """
import gymnasium, nim_toy
env = gymnasium.make("savanna/NimToy-v0")
obs, _ = env.reset(seed=0)
env.step(int(obs["action_mask"].nonzero()[0][0]))
"""

# The helper's work alone, then a fresh process's first env call and checked calls.
HELPER_THEN_CALLS = """
import json
import nim_toy
from savanna.compile_ahead import compile_kernels, kernel_arguments
from savanna.compile_log import CompileLog
from savanna.registry import make_game
game = make_game("nim_toy")
names = [n for n in kernel_arguments(game) if getattr(game.kernels, n) is not None]
if {which!r} == "helper":
    compile_kernels(game, names)
else:
    with CompileLog() as log:
""" + "\n".join("        " + line for line in FIRST_ENV_CALL.strip().splitlines()) + """
        game.warmup()
    compiled = {{name.rsplit(".", 1)[1] for name in log.own if name.startswith("nim_toy.")}}
    print(json.dumps({{"kernels": names, "compiled": sorted(compiled)}}))
"""

HELPERS_STARTED = FIRST_ENV_CALL + """
import json
from savanna import compile_ahead
codes = [helper.wait(timeout=120) for helper in compile_ahead._HELPERS]
print(json.dumps({"args": [h.args[-2:] for h in compile_ahead._HELPERS], "codes": codes}))
"""


def _run(code, cache, switch):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(TOY),
           "SAVANNA_COMPILE_AHEAD": switch}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1]) if done.stdout else None


def test_the_helpers_kernels_are_those_the_envs_and_checked_calls_load(tmp_path):
    _run(HELPER_THEN_CALLS.format(which="helper"), tmp_path, "0")
    seen = _run(HELPER_THEN_CALLS.format(which="calls"), tmp_path, "0")
    assert {"step_one", "legal_actions_one", "observe_one", "valid_one"} <= set(seen["kernels"])
    assert seen["compiled"] == [n for n in seen["compiled"] if n not in seen["kernels"]]


def test_a_control_without_the_helper_compiles_those_kernels_itself(tmp_path):
    """The check above can fail: a process that finds no helper's work compiles them."""
    seen = _run(HELPER_THEN_CALLS.format(which="calls"), tmp_path, "0")
    assert {"step_one", "legal_actions_one", "observe_one"} <= set(seen["compiled"])


def test_a_first_compiling_call_starts_one_helper_for_its_game_and_none_when_switched_off(
        tmp_path):
    started = _run(HELPERS_STARTED, tmp_path / "on", "1")
    assert started == {"args": [["nim_toy.game:NimGame", "env_step_batch"]], "codes": [0]}
    assert _run(HELPERS_STARTED, tmp_path / "off", "0") == {"args": [], "codes": []}
    # a second process on the filled cache compiles nothing: no helper
    assert _run(HELPERS_STARTED, tmp_path / "on", "1") == {"args": [], "codes": []}
