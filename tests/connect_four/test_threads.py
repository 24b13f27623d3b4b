"""savanna.threads.Adaptive on scripted kernels and a fake clock (no timing): it calibrates each
batch size once, then runs the fastest arm without exploring; it notices a neighbour that slows
the parallel arm within a few calls, re-checks the other arms rarely (less and less often while
the choice holds), shows its choices, respects a lower thread count set by the caller, and
returns the kernel's result."""
import numba
import numpy as np
import pytest

from savanna import threads

pytestmark = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")

MS = 1e-3  # the scripted kernels' time per item: a call of 10 items takes 10 ms


class Script:
    """Two fake kernels whose calls advance a fake clock by ``seconds_per_item[arm] * n``."""

    def __init__(self, serial, parallel):
        self.now = 0.0
        self.seconds_per_item = {"serial": serial * MS, "parallel": parallel * MS}
        self.calls = []
        self.spent = {"serial": 0.0, "parallel": 0.0}

    def clock(self):
        return self.now

    def kernel(self, arm):
        def run(items):
            self.calls.append((arm, numba.get_num_threads()))
            seconds = self.seconds_per_item[arm] * len(items)
            self.now += seconds
            self.spent[arm] += seconds
            return arm
        return run

    def adaptive(self):
        return threads.Adaptive(self.kernel("serial"), self.kernel("parallel"), max_threads=2,
                                clock=self.clock)

    def slow(self, arm, factor):
        self.seconds_per_item[arm] *= factor

    def arms_since(self, start):
        return [arm for arm, _ in self.calls[start:]]


def run(step, calls, items=10):
    for _ in range(calls):
        step(np.zeros(items))


def test_calibrates_once_then_runs_the_faster_arm_without_exploring():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    run(step, 2 * (threads.CALIBRATION + 1))     # each arm: one untimed call, then timed ones
    assert step.threads == 2
    start = len(script.calls)
    run(step, 50)                                 # 50 calls of 5 ms: far below RECHECK
    assert script.now < threads.RECHECK
    assert set(script.arms_since(start)) == {"parallel"}


def test_where_threads_are_not_faster_the_serial_arm_runs_alone():
    script = Script(serial=1.0, parallel=1.5)
    step = script.adaptive()
    run(step, 2 * (threads.CALIBRATION + 1))
    assert step.threads == 1
    start = len(script.calls)
    run(step, 50)
    assert set(script.arms_since(start)) == {"serial"}


@pytest.mark.parametrize("serial_call, tried", [(0.5, False), (2.0, True)])
def test_a_call_too_short_to_split_never_tries_threads(serial_call, tried):
    """A serial call under SERIAL_ONLY seconds: serial for good, however long the caller runs
    (one second of other work between calls); just above it, the threads are tried."""
    script = Script(serial=serial_call * threads.SERIAL_ONLY / MS / 10, parallel=0.0)
    step = script.adaptive()
    for _ in range(200):
        step(np.zeros(10))
        script.now += 1.0
    assert ("parallel" in script.arms_since(1)) == tried
    assert step.threads == (2 if tried else 1)


def test_each_batch_size_has_its_own_choice():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    serial, parallel = step.arms[0][0], step.arms[1][0]
    step.arms[1] = (lambda items: parallel(items) if len(items) > 10 else
                    serial(items * 4), 2)        # small batches: threads 4x slower
    for _ in range(20):
        step(np.zeros(100))
        step(np.zeros(10))
    assert (step.choice(100), step.choice(10), step.choice(7)) == (2, 1, None)


def test_a_neighbour_that_slows_the_parallel_arm_is_detected_within_a_few_calls():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    run(step, 20)
    script.slow("parallel", 40)                   # a busy process shares a core with a thread
    start = len(script.calls)
    run(step, 20)
    assert script.arms_since(start).count("parallel") <= threads.SUSPECT
    assert script.arms_since(start)[threads.SUSPECT:] == ["serial"] * (20 - threads.SUSPECT)
    assert step.threads == 1 and step.report()[0]["switches"] == 1


@pytest.mark.parametrize("factor, switched", [(0.9, False), (1.1, True)])
def test_only_a_parallel_arm_clearly_slower_than_serial_is_left(factor, switched):
    """Slowed to ``factor * SLOWER`` times the serial arm's time for ``SUSPECT`` calls: below
    the margin (an idle machine's hiccup) the choice stays, above it the shape goes serial."""
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    run(step, 20)
    script.slow("parallel", factor * threads.SLOWER / 0.5)
    run(step, threads.SUSPECT)
    assert (step.report()[0]["switches"] == 1) == switched


def switched_to_serial_by_a_neighbour():
    """A script whose parallel arm was chosen, then became 40 times slower (and was left)."""
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    run(step, 20)
    script.slow("parallel", 40)
    run(step, 20)
    assert step.threads == 1
    return script, step


def test_under_a_lasting_load_re_checks_are_rare_and_cheap():
    script, step = switched_to_serial_by_a_neighbour()
    before = dict(script.spent)
    start = len(script.calls)
    run(step, 50_000)                             # 500 s of fake time
    rechecks = step.report()[0]["rechecks"]
    doublings = np.log2(threads.MAX_RECHECK / threads.RECHECK)
    assert 500 / threads.MAX_RECHECK - 1 <= rechecks <= 500 / threads.MAX_RECHECK + doublings + 1
    assert script.arms_since(start).count("parallel") <= rechecks  # one call each (aborted)
    spent = script.spent["parallel"] - before["parallel"]
    assert spent / (script.now - sum(before.values())) < 2 * threads.EXPLORE


def test_a_load_that_goes_away_is_noticed_at_the_next_re_check():
    script, step = switched_to_serial_by_a_neighbour()
    script.slow("parallel", 1 / 40)               # the neighbour is gone
    slow_call = 40 * 5 * MS                       # what the parallel arm's calls took
    start = len(script.calls)
    run(step, int(slow_call / threads.EXPLORE / (10 * MS)) + 10)   # its re-check is due
    assert step.threads == 2
    assert script.arms_since(start).count("parallel") > 5


def test_calibration_drops_an_arm_far_slower_than_serial_after_one_call():
    script = Script(serial=1.0, parallel=40.0)    # a busy neighbour from the start
    step = script.adaptive()
    run(step, 20)
    assert script.arms_since(0).count("parallel") == 2   # the untimed call and one timed
    assert step.threads == 1


def test_report_shows_the_choice_and_its_measurements():
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    run(step, 12)
    (row,) = step.report()
    assert row["n"] == 10 and row["threads"] == 2 and sum(row["calls"].values()) == 12
    assert row["median_seconds"] == pytest.approx({1: 10 * MS, 2: 5 * MS})


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
        run(step, 20)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert set(script.arms_since(0)) == {"serial"}


def test_the_first_call_of_an_arm_is_not_timed():
    """A kernel's first call may compile or load it: a slow first call does not condemn it."""
    script = Script(serial=1.0, parallel=0.5)
    step = script.adaptive()
    run(step, 2)                                    # serial: untimed, then timed
    script.slow("parallel", 2000)                   # parallel's first call: "compiling"
    run(step, 1)
    script.slow("parallel", 1 / 2000)
    run(step, 10)
    assert script.arms_since(0)[:3] == ["serial", "serial", "parallel"]
    assert step.threads == 2


def test_bad_settings_are_value_errors():
    with pytest.raises(ValueError, match="max_threads must be in 1.."):
        threads.Adaptive(len, len, max_threads=0)
    for setting in ("yes", None, 2):
        with pytest.raises(ValueError, match="parallel must be 'auto', True or False"):
            threads.kernel_for(setting, len, sum)
    assert (threads.kernel_for(False, len, sum), threads.kernel_for(True, len, sum)) == (len, sum)


def test_adaptive_playouts_equal_the_serial_ones():
    """The real kernels: whichever arm runs, the results are the same."""
    from savanna.connect_four.game import ConnectFourGame
    from savanna.rng import make_streams

    game = ConnectFourGame()
    d = game.drivers
    step = threads.adaptive(d.random_playouts, d.random_playouts_parallel)
    assert threads.kernel_for("auto", d.random_playouts, d.random_playouts_parallel) is step
    outputs = []
    for kernel in (d.random_playouts, d.random_playouts_parallel, step, step, step):
        s = game.init(300, rng=0)
        totals, plies = np.zeros((300, 2), np.float32), np.zeros(300, np.int64)
        kernel(s, make_streams(5, 300), totals, plies)
        outputs.append((s.tobytes(), totals.tobytes(), plies.tobytes()))
    assert all(out == outputs[0] for out in outputs)
    assert any(row["kernel"] == "random_playouts" for row in threads.report())
