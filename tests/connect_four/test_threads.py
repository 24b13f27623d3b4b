"""savanna.threads.Adaptive on scripted kernels and a fake clock (no timing): it runs the arm
that is fastest per item, re-tries the others for a small share of the time, follows a change
of load, respects a lower thread count set by the caller, and returns the kernel's result."""
import numba
import numpy as np
import pytest

from savanna import threads

pytestmark = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")


class Script:
    """Two fake kernels whose calls advance a fake clock by ``seconds_per_item[arm] * n``."""

    def __init__(self, serial, parallel):
        self.now = 0.0
        self.seconds_per_item = {"serial": serial, "parallel": parallel}
        self.calls = []
        self.spent = {}   # seconds per arm

    def clock(self):
        return self.now

    def kernel(self, arm):
        def run(items):
            self.calls.append((arm, numba.get_num_threads()))
            per_item = self.seconds_per_item[arm]
            nth = sum(a == arm for a, _ in self.calls)   # the arm's nth call
            seconds = (per_item(nth) if callable(per_item) else per_item) * len(items)
            self.now += seconds
            self.spent[arm] = self.spent.get(arm, 0.0) + seconds
            return arm
        return run

    def adaptive(self):
        return threads.Adaptive(self.kernel("serial"), self.kernel("parallel"), max_threads=2,
                                clock=self.clock)


def share(calls, arm):
    return sum(a == arm for a, _ in calls) / len(calls)


def test_runs_the_faster_arm_and_explores_little():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    for _ in range(400):
        step(np.zeros(10))
    assert step.threads == 2
    assert 0 < share(script.calls, "serial") < 2 * threads.EXPLORE


def test_an_arm_that_is_sometimes_very_slow_gets_a_small_share_of_the_time():
    """A loaded parallel arm: most calls fast, one in four 40 times slower (a thread that
    waits for a core). Re-trying it is budgeted on its mean cost, not on its latest call."""
    script = Script(serial=1.0, parallel=lambda call: 20.0 if call % 4 == 0 else 0.5)
    step = script.adaptive()
    for _ in range(3000):
        step(np.zeros(10))
    assert step.threads == 1
    assert script.spent["parallel"] / script.now < 2 * threads.EXPLORE


def test_follows_a_load_that_comes_and_goes():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    for _ in range(50):
        step(np.zeros(10))
    script.seconds_per_item["parallel"] = 20.0     # a busy neighbour: parallel collapses
    script.calls.clear()
    for _ in range(200):
        step(np.zeros(10))
    assert step.threads == 1 and share(script.calls[-100:], "parallel") < 0.05
    script.seconds_per_item["parallel"] = 0.5      # the neighbour is gone
    for _ in range(2000):
        step(np.zeros(10))
    assert step.threads == 2


def test_returns_the_result_and_restores_the_thread_count():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    before = numba.get_num_threads()
    assert {step(np.zeros(3)) for _ in range(5)} == {"serial", "parallel"}
    assert numba.get_num_threads() == before
    assert all(n == 2 for arm, n in script.calls if arm == "parallel")


def test_a_lower_thread_count_set_by_the_caller_is_respected():
    script = Script(serial=1.0, parallel=0.1)
    step = script.adaptive()
    numba.set_num_threads(1)
    try:
        for _ in range(20):
            step(np.zeros(10))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert {arm for arm, _ in script.calls} == {"serial"}


def test_bad_max_threads_is_a_value_error():
    with pytest.raises(ValueError, match="max_threads must be in 1.."):
        threads.Adaptive(len, len, max_threads=0)


def test_adaptive_playouts_equal_the_serial_ones():
    """The real kernels: whichever arm runs, the results are the same."""
    from savanna.rng import make_streams
    from savanna_benchmarks.connect_four.game import ConnectFourGame

    game = ConnectFourGame()
    d = game.drivers
    step = threads.adaptive(d.random_playouts, d.random_playouts_parallel)
    assert threads.adaptive(d.random_playouts, d.random_playouts_parallel) is step
    outputs = []
    for run in (d.random_playouts, step, step, step):
        s = game.init(300, rng=0)
        totals, plies = np.zeros((300, 2), np.float32), np.zeros(300, np.int64)
        run(s, make_streams(5, 300), totals, plies)
        outputs.append((s.tobytes(), totals.tobytes(), plies.tobytes()))
    assert all(out == outputs[0] for out in outputs)


def test_the_first_call_of_an_arm_is_not_timed():
    """A kernel's first call may compile or load it: a slow first call does not condemn it."""
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    step(np.zeros(10))                              # serial, first call
    script.seconds_per_item["parallel"] = 1000.0    # parallel's first call: "compiling"
    step(np.zeros(10))
    script.seconds_per_item["parallel"] = 0.5
    for _ in range(10):
        step(np.zeros(10))
    assert step.threads == 2
