"""Distillation datasets (``savanna.agents.training.distill``), offline fitting
(``savanna.agents.training.fit``) and
``train az --init``: on Nim, whose exact values the solver gives."""
import dataclasses
import json
import shutil

import numba
import numpy as np
import pytest
import torch

from savanna.agents.models.az_checkpoint import load_checkpoint
from savanna.agents.models.az_config import AZConfig
from savanna.agents.play.exact import solve
from savanna.agents.training.alphazero import Trainer
from savanna.agents.training.distill import (
    DistillConfig,
    Teacher,
    distill,
    load_dataset,
    load_datasets,
    merge,
    part_file,
    play_part,
)
from savanna.agents.training.fit import FitConfig, fit, save_model, visit_policy
from savanna.agents.training.targets import prune_visits
from savanna.cli.train_az import initial_weights, run_training
from savanna.rng import make_streams
from tests.agents.tiny_games import HighCard, Nim

NIM = DistillConfig(game="nim", games=96, part_games=32, teacher="mcts:sims=200",
                    sample_decisions=3, seed=5)
SMALL_FIT = FitConfig(hidden=(32, 32), batch_size=128, steps=600, eval_every=100, lr=3e-3,
                      held_out=0.1, patience=20)


@pytest.fixture(scope="module")
def nim_data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nim-data")
    distill(NIM, folder, progress=False, game=Nim())
    return folder


def test_a_dataset_round_trips_and_replays_the_games_it_stores(nim_data):
    game = Nim()
    data = load_dataset(nim_data, game=game)
    assert data.size == data.game_decisions.sum()
    assert sorted(set(data.episode)) == list(range(NIM.games))
    order = np.lexsort((data.decision, data.episode))  # rows are stored move by move
    for j, i in enumerate(order):  # each stored decision's move leads to the next stored state
        lo, hi = data.child_start[i], data.child_start[i + 1]
        assert data.child_visits[lo:hi].sum() == 200
        assert data.action[i] in data.child_action[lo:hi]
        assert game.legal_mask(data.state[i:i + 1])[0, data.child_action[lo:hi]].all()
        after, _ = game.step(data.state[i:i + 1], [data.action[i]])
        following = order[j + 1] if j + 1 < len(order) else None
        if following is not None and data.episode[following] == data.episode[i]:
            assert data.decision[following] == data.decision[i] + 1
            assert after.tobytes() == data.state[following:following + 1].tobytes()
        else:
            assert game.current_player(after)[0] < 0  # the game's last decision
    assert np.abs(data.root_value).max() <= 1
    outcome = data.outcomes()
    assert np.array_equal(outcome[:, 0], -outcome[:, 1]) and set(outcome[:, 0]) <= {-1, 1}


def test_a_resumed_dataset_and_one_on_another_thread_count_are_the_same(nim_data, tmp_path):
    again = tmp_path / "again"
    distill(NIM, again, progress=False, game=Nim())
    part_file(again, 1).unlink()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        distill(NIM, again, progress=False, game=Nim())  # resumes: writes part 1 only
    finally:
        numba.set_num_threads(threads)
    for k in range(3):
        with np.load(part_file(nim_data, k)) as a, np.load(part_file(again, k)) as b:
            assert a.files == b.files
            for key in a.files:
                assert np.array_equal(a[key], b[key]), (k, key)
    with pytest.raises(ValueError, match="holds a dataset of other settings"):
        distill(DistillConfig(**{**NIM.to_dict(), "seed": 6}), again, game=Nim())


def test_merged_datasets_keep_every_decision_and_number_the_games_apart(nim_data, tmp_path):
    game = Nim()
    other = tmp_path / "other"
    distill(DistillConfig(**{**NIM.to_dict(), "seed": 7, "games": 40}), other, progress=False,
            game=game)
    a, b = load_dataset(nim_data, game=game), load_dataset(other, game=game)
    both = merge([a, b])
    assert both.size == a.size + b.size and both.config.games == NIM.games + 40
    assert len(set(both.episode)) == NIM.games + 40
    rows = np.arange(a.size, both.size)
    assert np.array_equal(visit_policy(both, rows, game.num_actions),
                          visit_policy(b, rows - a.size, game.num_actions))
    assert np.array_equal(both.outcomes()[rows], b.outcomes())
    with pytest.raises(ValueError, match="cannot be merged"):
        merge([a, b._replace(config=DistillConfig(game="zebres"))])


def test_only_a_uct_teacher_is_accepted():
    for spec in ("greedy", "mcts:time_budget=0.1", "random"):
        with pytest.raises(ValueError, match="the teacher must be a UCT agent"):
            DistillConfig(teacher=spec)


def test_the_visit_policy_is_the_stored_visits_normalised():
    game = Nim()
    part = play_part(game, NIM, 0)
    start = np.concatenate([[0], np.cumsum(part["child_count"])])

    class Rows:
        child_start, child_visits, child_action = start, part["child_visits"], \
            part["child_action"]

    rows = np.array([0, 3, 7, 3])
    policy = visit_policy(Rows, rows, game.num_actions)
    for j, i in enumerate(rows):
        expected = np.zeros(game.num_actions)
        expected[part["child_action"][start[i]:start[i + 1]]] = \
            part["child_visits"][start[i]:start[i + 1]] / 200
        assert policy[j] == pytest.approx(expected)


def test_fitting_reaches_the_solvers_values(nim_data):
    game = Nim()
    result = fit(load_dataset(nim_data, game=game), SMALL_FIT, progress=False)
    report = result.report["all"]
    assert report["value_mse_vs_target"] < report["teacher_mse_vs_outcome"] + 0.1
    states = np.unique(load_dataset(nim_data, game=game).state)
    obs = game.observe(states, game.current_player(states)).reshape(len(states), -1)
    with torch.no_grad():
        from savanna.agents.models.features import active_features

        _, values = result.net.from_features(torch.from_numpy(active_features(obs)))
    exact = np.array([solve(game, states[i:i + 1])[0][game.current_player(
        states[i:i + 1])[0]] for i in range(len(states))])
    agree = np.sign(values[:, 0].numpy()) == exact
    assert agree.mean() >= 0.9, (agree.mean(), len(states))


def test_a_fit_can_start_from_a_model(nim_data, tmp_path):
    game = Nim()
    data = load_dataset(nim_data, game=game)
    first = fit(data, SMALL_FIT, progress=False)
    save_model(first, tmp_path / "model.pt")
    again = fit(data, dataclasses.replace(SMALL_FIT, init=str(tmp_path / "model.pt"), steps=1,
                                          lr=1e-7), progress=False)
    for key, value in first.net.state_dict().items():  # float16 in the file
        assert torch.allclose(again.net.state_dict()[key], value, atol=2e-3), key
    with pytest.raises(ValueError, match="hidden widths"):
        fit(data, dataclasses.replace(SMALL_FIT, hidden=(16,), init=str(tmp_path / "model.pt")),
            progress=False)


def test_train_az_starts_from_a_fitted_model_or_from_data(nim_data, tmp_path):
    game = Nim()
    fit_config = dataclasses.replace(SMALL_FIT, rollout_weight=0.25, determinizations=3)
    result = fit(load_dataset(nim_data, game=game), fit_config, progress=False)
    save_model(result, tmp_path / "model.pt")
    stored = load_checkpoint(tmp_path / "model.pt", game)
    assert stored["model"]["trunk.0.weight"].dtype == torch.float16  # half: smaller files
    # the search settings az plays it with by default
    assert (stored["config"]["rollout_weight"], stored["config"]["determinizations"]) == (0.25, 3)
    config = AZConfig(game="nim", hidden=(32, 32), init=str(tmp_path / "model.pt"), games=8,
                      sims=8, batch_size=16, eval_games=2, eval_sims=2, ladder=("random",))
    trainer = Trainer(config, game, init_weights=initial_weights(config, game))
    for key, value in trainer.learner.net.state_dict().items():
        assert torch.equal(value, stored["model"][key].float()), key
        assert torch.equal(value, trainer.selfplay.net.state_dict()[key]), key
    with pytest.raises(ValueError, match=r"hidden widths \(32, 32\).*give --hidden 32,32"):
        initial_weights(AZConfig(game="nim", hidden=(16,), init=config.init), game)
    folder = run_training(config, runs_dir=tmp_path, game=game, stop_after=2,
                          write=lambda *_: None)
    assert (folder / "last.pt").exists()
    from_data = AZConfig(**{**config.to_dict(), "init": str(nim_data)})
    weights = initial_weights(from_data, game, fit_config=SMALL_FIT)
    assert weights.keys() == trainer.learner.net.state_dict().keys()


def test_the_command_line_distills_fits_and_plays_the_model(tmp_path, capsys):
    from savanna.benchmarks.distill_speed import gate_section
    from savanna.cli.main import main

    data, run = tmp_path / "data", tmp_path / "fit"
    assert main(["distill", "zebres", "--games", "6", "--part-games", "4", "--teacher",
                 "mcts:sims=8", "--out", str(data), "--no-progress"]) == 0
    assert sorted(p.name for p in data.iterdir()) == [".savanna-claim", "dataset.json",
                                                      "part-00000.npz", "part-00001.npz"]
    assert main(["fit", str(data), "--hidden", "16", "--batch-size", "64", "--steps", "20",
                 "--eval-every", "10", "--held-out", "0.2", "--out", str(run),
                 "--no-progress"]) == 0
    assert {"model.pt", "report.md", "report.json", "curve.csv", "config.json"} <= {
        p.name for p in run.iterdir()}
    assert "| 0-9 |" in gate_section([run])
    assert main(["match", "zebres", f"az:{run / 'model.pt'},sims=4", "random", "--games", "2",
                 "--no-records", "--out", str(tmp_path / "match")]) == 0
    assert "ms/move" in capsys.readouterr().out


def test_pruned_policy_targets_sum_to_one_and_keep_the_best_move(nim_data):
    game = Nim()
    data = load_dataset(nim_data, game=game)
    rows = np.arange(data.size)
    raw = visit_policy(data, rows, game.num_actions)
    pruned = visit_policy(data, rows, game.num_actions, prune=(1.4, 1))
    assert np.allclose(pruned.sum(axis=1), 1.0)
    best = raw.argmax(axis=1)
    assert np.array_equal(pruned.argmax(axis=1), best)
    assert (pruned[rows, best] >= raw[rows, best] - 1e-6).all()  # mass moves to the best only
    assert (pruned[raw == 0] == 0).all()
    assert (pruned[rows, best] > raw[rows, best] + 0.01).mean() > 0.2  # and it prunes
    # ties at the top: the better valued child is the best and keeps its visits
    kept = prune_visits([50, 50, 1], [-0.2, 0.3, 0.0], [0, 0, 0], c=1.4)
    assert kept[1] == 50 and kept[2] == 0 and kept[0] <= 50


def test_the_information_state_teacher_sees_only_what_the_mover_knows():
    game = HighCard()
    same_for_seat_0 = game.deal([1, 3, 4]), game.deal([1, 0, 2])  # seat 0 holds 1 in both

    def targets(spec, states):
        rng = np.random.default_rng(11)
        teacher = Teacher(game, spec, 1, make_streams(rng, 1), rng)
        return teacher.search(states, game.current_player(states), np.zeros(1, np.int64), 0,
                              rng)

    first, second = (targets("mcts:sims=400,determinizations=8", s) for s in same_for_seat_0)
    for a, b in zip(first, second):
        assert np.array_equal(a, b)
    assert first[0].sum() == 400
    true_deal = [targets("mcts:sims=400", s) for s in same_for_seat_0]
    assert not np.array_equal(true_deal[0][0], true_deal[1][0])  # it reads the others' cards


def test_the_score_head_fits_a_toy(nim_data):
    game = Nim()
    data = load_dataset(nim_data, game=game)
    toy = data._replace(game_scores=(7 * data.game_returns + 3).astype(np.int64))  # margins ±1
    config = dataclasses.replace(SMALL_FIT, score_weight=1.0)
    report = fit(toy, config, progress=False).report
    assert report["score_variance"] == pytest.approx(1.0, abs=0.05)
    # the margins are the outcomes here: the head predicts them as well as the search does
    assert report["score_mse"] < 0.8 * report["score_variance"]
    assert report["score_mse"] < report["all"]["teacher_mse_vs_outcome"] + 0.05
    with pytest.raises(ValueError, match="score_weight needs final scores"):
        fit(data, config, progress=False)


def test_the_parts_written_so_far_load_as_a_dataset(nim_data, tmp_path):
    game, stopped = Nim(), tmp_path / "stopped"
    shutil.copytree(nim_data, stopped)
    meta = json.loads((stopped / "dataset.json").read_text())
    del meta["parts"][part_file(stopped, 2).name]  # stopped before its last part
    (stopped / "dataset.json").write_text(json.dumps(meta))
    part_file(stopped, 2).unlink()
    with pytest.raises(ValueError, match="is missing"):
        load_datasets([stopped], game)
    data, full = load_datasets([stopped], game, partial=True), load_dataset(nim_data, game=game)
    assert len(data.game_returns) == 2 * NIM.part_games
    assert np.array_equal(data.state, full.state[full.episode < 2 * NIM.part_games])


def test_a_student_plays_the_moves_the_teacher_labels():
    game = Nim()

    def moves_not_the_teachers_best(config):
        part = play_part(game, config, 0)
        start = np.concatenate([[0], np.cumsum(part["child_count"])])
        worse = [part["child_visits"][lo:hi][part["child_action"][lo:hi] == a].sum()
                 < part["child_visits"][lo:hi].max()
                 for lo, hi, a in zip(start[:-1], start[1:], part["action"])]
        late = part["decision"] >= config.sample_decisions
        return np.mean(np.array(worse)[late])

    teacher_only = DistillConfig(**{**NIM.to_dict(), "games": 32})
    assert moves_not_the_teachers_best(teacher_only) == 0
    assert moves_not_the_teachers_best(dataclasses.replace(teacher_only, student="random")) > 0.2
    with pytest.raises(ValueError, match="give student too"):
        dataclasses.replace(teacher_only, opponent="random")
