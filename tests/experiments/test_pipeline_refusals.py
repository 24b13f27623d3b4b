"""The research pipeline refuses what it should (issue 34's reproductions): ``distill``, ``fit``,
``az:`` model files, ``train az --init/--resume`` and ``analyse`` end every bad input with exit
status 2 (or a ValueError) and one line naming what was wrong, before anything is written."""
import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from savanna.agents.models.az_config import AZConfig
from savanna.agents.training.distill import DistillConfig, distill, part_file
from savanna.cli.main import main
from savanna.cli.train_az import initial_weights, run_training
from tests.agents.tiny_games import DiceRace, HighCard, Nim


def tree(folder):
    """Every path under ``folder`` with its bytes (None for a folder or a FIFO)."""
    return {p: p.read_bytes() if p.is_file() else None for p in Path(folder).rglob("*")}


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "extra.json").write_text(json.dumps({"game": "zebres", "frobnicate": 1}))
    (tmp_path / "wide.json").write_text(json.dumps({"hidden": [4096] * 600}))
    (tmp_path / "listed.json").write_text(json.dumps({"game": ["zebres"]}))
    os.mkfifo(tmp_path / "fifo.pt")
    data = tmp_path / "data"
    data.mkdir()
    (data / "dataset.json").write_text(json.dumps({
        "format": "savanna-distill", "version": 2, "parts": {},
        "config": {**DistillConfig(games=2, part_games=1).to_dict(), "frobnicate": 1}}))
    return tmp_path


MCTS8 = "mcts:sims=8"
TABLE = [
    (["distill", "zebres", "--teacher", "mcts:sims=8,temperature=1", "--out", "new"],
     "sets temperature, which distill does not use"),
    (["distill", "zebres", "--teacher", "mcts:sims=8,max_nodes=100", "--out", "new"],
     "sets max_nodes, which distill does not use"),
    (["distill", "zebres", "--teacher", "mcts:sims=2000000", "--out", "new"],
     "needs trees of"),
    (["distill", "--config", "extra.json", "--out", "new"],
     "unknown distill settings ['frobnicate']"),
    (["distill", "--config", "listed.json", "--out", "new"], "unknown game ['zebres']"),
    (["distill", "--resume", "data"], "unknown distill settings ['frobnicate']"),
    (["distill", "--resume", "data", "--games", "5"],
     "--resume continues a run with its own settings; none may be given, got --games"),
    (["distill", "zebres", "--out", "x" * 300], "File name too long"),
    (["distill", "zebres", "-o", "board=nowhere", "--out", "new"], "board"),
    (["fit", "data", "--config", "wide.json"], "hidden must be 1 to 8 layer widths"),
    (["match", "zebres", "az:/dev/zero", "random", "--out", "new"], "is not a regular file"),
    (["match", "zebres", "az:fifo.pt", "random", "--out", "new"], "is not a regular file"),
    (["match", "zebres", "az:baseline,max_considered=1048576", MCTS8, "--out", "new"],
     "max_considered must be an int in 1..65536"),
    (["match", "zebres", "az:baseline,determinizations=1048576", MCTS8, "--out", "new"],
     "determinizations must be an int in 1..1024"),
    (["train", "az", "zebres", "--init", ""], "--init needs a checkpoint file"),
]


@pytest.mark.parametrize("argv, message", TABLE, ids=[" ".join(a)[:50] for a, _ in TABLE])
def test_a_bad_pipeline_command_is_one_line_exit_2_and_writes_nothing(argv, message, cwd,
                                                                      capsys):
    before = tree(cwd)
    assert main(argv) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and message in err and len(err) < 400, err
    assert tree(cwd) == before


# ----- train az --init -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def nim_data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nim") / "data"
    distill(DistillConfig(game="nim", games=8, part_games=4, teacher="mcts:sims=8", seed=3),
            folder, progress=False, game=Nim())
    return folder


def test_train_az_init_refuses_a_corrupt_dataset_or_one_of_another_game(nim_data, tmp_path):
    broken = Path(shutil.copytree(nim_data, tmp_path / "broken"))
    part_file(broken, 1).write_bytes(part_file(broken, 1).read_bytes()[:200])
    config = AZConfig(game="nim", hidden=(8,), init=str(broken))
    with pytest.raises(ValueError, match="part-00001.npz' does not match the SHA-256"):
        initial_weights(config, Nim())
    config = AZConfig(game="dice_race", hidden=(8,), init=str(nim_data))
    with pytest.raises(ValueError, match="holds games of 'nim'.*not of dice_race"):
        initial_weights(config, DiceRace())
    with pytest.raises(ValueError, match="holds games of nim with other options: heaps="):
        initial_weights(AZConfig(game="nim", hidden=(8,), init=str(nim_data)), Nim((1, 1, 1)))


# ----- train az --resume ---------------------------------------------------------------------
TINY_RUN = AZConfig(game="nim", games=4, sims=4, hidden=(8,), batch_size=8, replay_window=64,
                    eval_games=2, eval_sims=2, ladder=("random",), log_every=1)


@pytest.fixture(scope="module")
def nim_run(tmp_path_factory):
    return run_training(TINY_RUN, runs_dir=tmp_path_factory.mktemp("runs"), game=Nim(),
                        stop_after=3, write=lambda *_: None)


def _metrics(folder, edit):
    path = folder / "metrics.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(edit(lines)) + "\n")


EDITS = [
    (lambda f: _metrics(f, lambda ls: ls[:2] + [ls[2].replace(ls[2].split(",")[0], "inf", 1)]),
     r"metrics.csv' line 3: step is 'inf'"),
    (lambda f: _metrics(f, lambda ls: ls[:2] + [ls[2].rsplit(",", 1)[0]]),
     r"metrics.csv' line 3: \d+ cells, the header has"),
    (lambda f: _metrics(f, lambda ls: ls[:2] + ["3," + "9" * 200_000 + ls[2][1:]]),
     r"metrics.csv' line 3: field larger than field limit"),
    (lambda f: _metrics(f, lambda ls: [ls[0], ls[2], ls[1]]),
     r"metrics.csv' line 3: step is '1', expected a whole number above the previous row's 2"),
    (lambda f: ((f / "metrics.csv").unlink(), (f / "metrics.csv").mkdir()),
     r"metrics.csv' must be a file"),
    (lambda f: (shutil.rmtree(f / "eval-records"), (f / "eval-records").write_text("x")),
     r"eval-records' must be a folder"),
    (lambda f: (f / "config.json").write_text(json.dumps(
        {**json.loads((f / "config.json").read_text()), "lr": 0.5})),
     r"config.json' differs from the run's checkpoint \(lr: 0.5 there, 0.001 in the "
     r"checkpoint\)"),
]


@pytest.mark.parametrize("edit, message", EDITS)
def test_resume_refuses_edited_run_files_in_one_line_and_changes_nothing(nim_run, tmp_path,
                                                                         edit, message):
    folder = Path(shutil.copytree(nim_run, tmp_path / "run"))
    edit(folder)
    before = tree(folder)
    with pytest.raises(ValueError, match=message) as err:
        run_training(resume=folder, game=Nim(), stop_after=1, write=lambda *_: None)
    assert "\n" not in str(err.value)
    assert {p: b for p, b in tree(folder).items() if p.name != ".savanna-claim"} == {
        p: b for p, b in before.items() if p.name != ".savanna-claim"}


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders")
def test_resume_refuses_a_run_folder_it_cannot_write(nim_run, tmp_path):
    folder = Path(shutil.copytree(nim_run, tmp_path / "run"))
    folder.chmod(0o555)
    try:
        with pytest.raises(ValueError, match="cannot write in run folder"):
            run_training(resume=folder, game=Nim(), stop_after=1, write=lambda *_: None)
    finally:
        folder.chmod(0o755)


def test_a_resumed_run_keeps_strict_logs(nim_run, tmp_path):
    from savanna.cli.run_folders import read_log

    folder = Path(shutil.copytree(nim_run, tmp_path / "run"))
    run_training(resume=folder, game=Nim(), stop_after=2, write=lambda *_: None)
    _, rows = read_log(folder / "metrics.csv")  # steps grow, every cell a number
    assert [int(r["step"]) for r in rows] == list(range(1, 6))


# ----- analyse -------------------------------------------------------------------------------
def test_analysis_with_several_determinizations_counts_every_tree(tmp_path):
    from savanna.agents.models.az_checkpoint import save_checkpoint
    from savanna.agents.play.analysis import analyse
    from savanna.agents.play.az_agent import AZAgent
    from savanna.agents.training.alphazero import Trainer

    game = HighCard()
    trainer = Trainer(AZConfig(game="high_card", games=2, sims=4, hidden=(8,), batch_size=8,
                               replay_window=64), game)
    save_checkpoint(trainer.checkpoint(full=False), tmp_path / "az.pt")
    trainer.close()
    rng = np.random.default_rng(0)
    state = game.init(1, rng)
    while game.current_player(state)[0] < 0:
        game.apply_chance(state, game.sample_chance(state, rng))
    result = analyse(game, state, AZAgent(tmp_path / "az.pt", sims=64, determinizations=4),
                     rng)
    assert result.simulations == sum(r["visits"] for r in result.rows) == 64
    assert result.pv[0] == result.rows[0]["move"]
    assert np.isclose(sum(r["prior"] for r in result.rows), 1.0, atol=1e-5)


# ----- a folder that cannot be written -------------------------------------------------------
@contextlib.contextmanager
def unwritable(folder):
    """``folder`` made unwritable for this process while the block runs: ``chattr +i`` when
    running as root (root writes through permissions), else read-only permissions."""
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
            pytest.skip("root, and chattr +i does not work here")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)


def test_distill_resume_into_a_folder_it_cannot_write_is_one_line_exit_2(tmp_path, capsys):
    folder = tmp_path / "data"
    assert main(["distill", "zebres", "--teacher", "mcts:sims=4", "--games", "2",
                 "--part-games", "1", "--out", str(folder), "--no-progress"]) == 0
    meta = json.loads((folder / "dataset.json").read_text())
    part_file(folder, 1).unlink()  # a stopped run: one part to write
    del meta["parts"][part_file(folder, 1).name]
    (folder / "dataset.json").write_text(json.dumps(meta))
    capsys.readouterr()
    before = tree(folder)
    with unwritable(folder):
        assert main(["distill", "--resume", str(folder), "--no-progress"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "cannot write in dataset folder" in err, err
    assert tree(folder) == before


def test_train_az_resume_into_a_folder_it_cannot_write_is_one_line_exit_2(tmp_path, capsys):
    config = AZConfig(game="zebres", games=2, sims=2, hidden=(8,), batch_size=8,
                      replay_window=64, eval_games=2, eval_sims=2, ladder=("random",),
                      log_every=1)
    folder = run_training(config, runs_dir=tmp_path, stop_after=1, write=lambda *_: None)
    capsys.readouterr()  # a first compile's message
    before = tree(folder)
    with unwritable(folder):
        assert main(["train", "az", "--resume", str(folder)]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "cannot write in run folder" in err, err
    assert tree(folder) == before
