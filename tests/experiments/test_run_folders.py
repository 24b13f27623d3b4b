"""Results are never lost or overwritten: run folders made exclusively, ``--out`` checked
before any game is played, files written atomically (``savanna.files``)."""
import contextlib
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from savanna.agents.models.az_config import AZConfig
from savanna.cli.main import main
from savanna.cli.train_az import run_training
from savanna.files import atomic_write_bytes, atomic_write_text, new_folder, output_folder
from savanna.registry import make_game

MATCH = ["match", "zebres", "random", "random", "--games", "2", "--workers", "1",
         "--no-progress"]


@pytest.fixture
def frozen_clock(monkeypatch):
    """Every folder stamped with the same second, as for runs started together."""
    monkeypatch.setattr("savanna.files.stamp", lambda: "20260101-120000")


def run_together(target, arguments):
    threads = [threading.Thread(target=target, args=(a,)) for a in arguments]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_folders_made_in_the_same_second_are_all_new(tmp_path, frozen_clock):
    made = []
    run_together(lambda k: made.append(new_folder(tmp_path / "runs", "match-zebres")), range(8))
    assert len(set(made)) == 8 and all(f.is_dir() for f in made)
    assert sorted(f.name for f in made) == sorted(
        ["match-zebres-20260101-120000"] + [f"match-zebres-20260101-120000-{k}"
                                            for k in range(2, 9)])


def test_two_matches_started_together_keep_both_results(tmp_path, monkeypatch, frozen_clock,
                                                        capsys):
    monkeypatch.chdir(tmp_path)
    # Load the compiled drivers first: two threads loading them at once can get a module
    # that is still running (savanna.binding registers it first); matches are thread-safe.
    make_game("zebres").init(1, 0)
    codes = []
    run_together(lambda seed: codes.append(main([*MATCH, "--seed", str(seed)])), (1, 2))
    assert codes == [0, 0]
    folders = sorted((tmp_path / "runs").iterdir())
    assert [f.name for f in folders] == ["match-zebres-20260101-120000",
                                         "match-zebres-20260101-120000-2"]
    seeds = {json.loads((f / "match.json").read_text())["seed"] for f in folders}
    assert seeds == {1, 2}
    assert all(sorted(p.name for p in f.iterdir()) == ["games.csv", "match.json",
                                                       "records.jsonl", "summary.csv"]
               for f in folders)


def test_a_training_run_started_in_the_same_second_with_the_same_seed_gets_its_own_folder(
        tmp_path, frozen_clock, capsys):
    taken = tmp_path / "zebres-ppo-0-20260101-120000"
    taken.mkdir()  # by the other run
    assert main(["train", "ppo", "zebres", "--steps", "64", "--envs", "8", "--hidden", "8",
                 "--eval-games", "2", "--runs-dir", str(tmp_path), "--no-progress"]) == 0
    assert list(taken.iterdir()) == []
    assert (tmp_path / "zebres-ppo-0-20260101-120000-2" / "last.pt").exists()


def one_line_error(capsys, message):
    captured = capsys.readouterr()
    assert captured.out == ""  # no table: no game was played
    assert captured.err.count("\n") == 1 and message in captured.err


def test_out_onto_a_folder_with_results_is_refused_before_playing(tmp_path, capsys):
    out = tmp_path / "m"
    out.mkdir()
    (out / "match.json").write_text("earlier results")
    assert main([*MATCH, "--out", str(out)]) == 2
    one_line_error(capsys, "already holds files; give a new folder, or allow overwriting")
    assert (out / "match.json").read_text() == "earlier results"
    assert main([*MATCH, "--out", str(out), "--overwrite"]) == 0
    assert json.loads((out / "match.json").read_text())["games"] == 2


def test_out_onto_a_file_is_refused_before_playing(tmp_path, capsys):
    target = tmp_path / "results.json"
    target.write_text("keep me")
    assert main([*MATCH, "--out", str(target)]) == 2
    one_line_error(capsys, "is a file, not a folder")
    assert target.read_text() == "keep me"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_out_onto_a_folder_without_write_permission_is_refused(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert main([*MATCH, "--out", str(locked)]) == 2
    one_line_error(capsys, "cannot write in output folder")


def test_overwrite_needs_out(capsys):
    assert main([*MATCH, "--overwrite"]) == 2
    one_line_error(capsys, "--overwrite needs --out")


def test_an_empty_output_folder_is_taken_and_a_missing_one_made(tmp_path):
    (tmp_path / "empty").mkdir()
    assert output_folder(tmp_path / "empty") == tmp_path / "empty"
    assert output_folder(tmp_path / "a" / "b").is_dir()


def test_an_atomic_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "r.json"
    atomic_write_text(path, "old")
    atomic_write_text(path, "new é")
    assert path.read_text(encoding="utf-8") == "new é"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]
    (tmp_path / "plain").write_text("")
    assert path.stat().st_mode == (tmp_path / "plain").stat().st_mode  # not a private 0600


def test_a_failed_atomic_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("old")
    with pytest.raises(TypeError):
        atomic_write_bytes(path, "text is not bytes")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_a_metrics_column_that_appears_later_widens_the_file_and_survives_a_resume(tmp_path):
    """AlphaZero logs before its learner has a batch: the loss columns come later."""
    import csv

    from savanna.cli.run_folders import METRICS_FILE, RunLog

    log = RunLog(tmp_path)
    log.write(METRICS_FILE, {"step": 1, "games": 4})
    log.write(METRICS_FILE, {"step": 2, "games": 8, "loss": 0.5})
    log.write(METRICS_FILE, {"step": 3, "games": 12, "loss": 0.25})
    log.close()
    RunLog(tmp_path, resume_step=2).close()
    with open(tmp_path / METRICS_FILE, newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows == [{"step": "1", "games": "4", "loss": ""},
                    {"step": "2", "games": "8", "loss": "0.5"}]


@contextlib.contextmanager
def unwritable(path):
    """``path`` made immutable (``chattr +i``; chmod 444 where this user is not root), put
    back at the end; the test is skipped where neither can stop this user."""
    path = Path(path)
    frozen = shutil.which("chattr") and subprocess.run(
        ["chattr", "+i", str(path)], capture_output=True).returncode == 0
    if not frozen and os.geteuid() == 0:
        pytest.skip("root without chattr +i: no file can be made unwritable")
    if not frozen:
        path.chmod(0o444)
    try:
        yield
    finally:
        if frozen:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o644)


TINY_RUN = AZConfig(game="zebres", games=4, sims=4, hidden=(8,), batch_size=8,
                    replay_window=64, eval_games=2, eval_sims=2, ladder=("random",),
                    log_every=1, minutes=60)


def refused_in_one_line(argv, capsys, name):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"{name}' in " in err and "a resumed run rewrites the files of its folder" in err


def test_a_resume_with_a_file_it_cannot_rewrite_ends_in_one_line(tmp_path, capsys):
    """A dataset's manifest, a run's checkpoint, log or settings made immutable while the
    folder stays writable: ``distill --resume`` and ``train az --resume`` refuse before any
    work, naming the file."""
    dataset = tmp_path / "dataset"
    assert main(["distill", "zebres", "--games", "2", "--part-games", "1", "--teacher",
                 "mcts:sims=4", "--sample-decisions", "2", "--out", str(dataset),
                 "--no-progress"]) == 0
    (dataset / "part-00001.npz").unlink()  # a part left to write
    with unwritable(dataset / "dataset.json"):
        refused_in_one_line(["distill", "--resume", str(dataset), "--no-progress"], capsys,
                            "dataset.json")
    run = run_training(TINY_RUN, runs_dir=tmp_path / "runs", stop_after=1,
                       write=lambda *_: None)
    capsys.readouterr()
    for name in ("last.pt", "metrics.csv", "config.json"):
        before = (run / name).read_bytes()
        with unwritable(run / name):
            refused_in_one_line(["train", "az", "--resume", str(run)], capsys, name)
        assert (run / name).read_bytes() == before


def test_a_file_made_unwritable_while_a_command_runs_ends_in_one_line(tmp_path, capsys,
                                                                     monkeypatch):
    """The manifest made immutable once the dataset started: the next write ends the command
    with one line naming the file."""
    import savanna.agents.training.distill as distilling

    dataset, first_write = tmp_path / "dataset", distilling.write_meta
    with contextlib.ExitStack() as stack:
        def write_then_freeze(folder, meta):
            first_write(folder, meta)
            monkeypatch.setattr(distilling, "write_meta", first_write)
            stack.enter_context(unwritable(folder / "dataset.json"))

        monkeypatch.setattr(distilling, "write_meta", write_then_freeze)
        assert main(["distill", "zebres", "--games", "2", "--part-games", "1", "--teacher",
                     "mcts:sims=4", "--sample-decisions", "2", "--out", str(dataset),
                     "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("savanna distill: error: cannot write ") and "dataset.json" in err
