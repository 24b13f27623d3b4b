"""Two writers of one folder never interleave (``savanna.files.claimed``): two ``savanna distill``
runs into one new folder, or two ``savanna train az --resume`` of one run, started together,
leave one writer's complete, consistent output and a one-line refusal (exit 2) for the other.
Each try starts two real processes; ``make test`` runs 3 tries, ``make check-full`` 20. The
distills start together (either the second finds the folder held, or, once the first is done,
a dataset of other settings); the second resume starts once the first is training."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from savanna.agents.models.az_checkpoint import load_checkpoint
from savanna.agents.models.az_config import AZConfig
from savanna.agents.training.distill import DistillConfig, distill, load_dataset
from savanna.cli.run_folders import read_log
from savanna.cli.train_az import run_training

ROOT = Path(__file__).resolve().parents[2]
TRIES = [pytest.param(3, id="3 tries"), pytest.param(20, id="20 tries", marks=pytest.mark.slow)]
DISTILL = dict(game="zebres", games=2, part_games=1, teacher="mcts:sims=4",
               sample_decisions=2)


def start(argv):
    """``savanna ARGV`` in a process of its own, on this tree's code."""
    return subprocess.Popen([sys.executable, "-m", "savanna.cli", *argv],
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def both(argvs):
    """Start the commands together; ``[(exit status, stderr)]`` of each."""
    processes = [start(argv) for argv in argvs]
    return [(p.wait(timeout=300), p.communicate()[1]) for p in processes]


def one_refused(results, *messages):
    """The index of the writer that finished, once the other was refused in one line."""
    assert sorted(code for code, _ in results) == [0, 2], results
    loser = next(err for code, err in results if code == 2)
    assert loser.count("\n") == 1 and any(m in loser for m in messages), loser
    return next(k for k, (code, _) in enumerate(results) if code == 0)


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """The datasets of the two seeds, written alone."""
    out = {}
    for seed in (1, 2):
        folder = tmp_path_factory.mktemp(f"seed{seed}")
        distill(DistillConfig(**DISTILL, seed=seed), folder, progress=False)
        out[seed] = load_dataset(folder)
    return out


@pytest.mark.parametrize("tries", TRIES)
def test_two_distills_into_one_folder_leave_one_dataset(tries, references, tmp_path):
    flags = ["--games", "2", "--part-games", "1", "--teacher", "mcts:sims=4",
             "--sample-decisions", "2", "--no-progress"]
    for k in range(tries):
        folder = tmp_path / f"try-{k}"
        results = both([["distill", "zebres", *flags, "--seed", str(seed), "--out", str(folder)]
                        for seed in (1, 2)])
        winner = one_refused(results, "is being written by", "holds a dataset of other settings")
        seed = json.loads((folder / "dataset.json").read_text())["config"]["seed"]
        assert seed == winner + 1
        data, reference = load_dataset(folder), references[seed]
        for name in ("state", "child_visits", "root_value", "game_returns"):
            assert np.array_equal(getattr(data, name), getattr(reference, name)), name


TINY_RUN = AZConfig(game="zebres", games=4, sims=4, hidden=(8,), batch_size=8,
                    replay_window=64, eval_games=2, eval_sims=2, ladder=("random",),
                    log_every=1, minutes=60)


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    return run_training(TINY_RUN, runs_dir=tmp_path_factory.mktemp("runs"), stop_after=2,
                        write=lambda *_: None)


def wait_for(condition, process):
    """Poll ``condition()`` while ``process`` runs (a failure if it ends first)."""
    while not condition():
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


@pytest.mark.parametrize("tries", TRIES)
def test_two_resumes_of_one_run_leave_one_consistent_run(tries, base_run, tmp_path):
    """The first resume trains (until Ctrl-C) while the second starts: the second is refused
    naming the first, which then stops, saves and leaves logs that match its checkpoint."""
    for k in range(tries):
        folder = Path(shutil.copytree(base_run, tmp_path / f"try-{k}"))
        first = start(["train", "az", "--resume", str(folder), "--minutes", "60"])
        metrics = folder / "metrics.csv"
        wait_for(lambda path=metrics: len(read_log(path)[1]) > 2, first)  # it trains
        code, err = both([["train", "az", "--resume", str(folder), "--minutes", "60"]])[0]
        assert code == 2 and err.count("\n") == 1, err
        assert f"is being written by pid {first.pid} on " in err, err
        first.send_signal(signal.SIGINT)  # stop: finish the move, save, exit 0
        assert first.wait(timeout=300) == 0, first.communicate()
        _, metrics = read_log(folder / "metrics.csv")  # strictly growing steps
        read_log(folder / "eval.csv")
        last = load_checkpoint(folder / "last.pt")
        assert int(metrics[-1]["step"]) == last["trainer"]["moves"] > 2


def test_a_claim_ends_with_its_holder_however_it_ends(tmp_path):
    from savanna.files import claimed

    script = ("import sys, time\nfrom savanna.files import claimed\nwith claimed(sys.argv[1]):\n"
              "    print('held', flush=True)\n    time.sleep(600)\n")
    holder = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(ValueError, match=f"is being written by pid {holder.pid} on "):
            with claimed(tmp_path):
                pass
    finally:
        holder.kill()  # SIGKILL: no clean-up runs, yet no stale claim is left
        holder.wait()
    with claimed(tmp_path):
        pass
