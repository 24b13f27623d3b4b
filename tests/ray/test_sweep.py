"""A sweep of four short PPO trials with Ray Tune and ASHA: every trial is a run folder, the
best is the one with the highest score among those that went furthest."""
import csv

TINY_PPO = {"game": "zebres", "num_envs": 8, "rollout_len": 8, "hidden": (16,), "epochs": 1,
            "minibatches": 1, "eval_games": 4, "eval_every": 10**9, "checkpoint_every": 10**9,
            "snapshot_every": 10**9}


def test_a_sweep_of_four_short_trials_completes_and_picks_the_best(two_nodes, tmp_path):
    from savanna.cli.sweep_command import sweep

    messages = []
    folder, rows = sweep("ppo", TINY_PPO, trials=4, budget=128, rungs=2, runs_dir=tmp_path,
                         write=messages.append)
    assert len(rows) == 4 and all(not r["error"] for r in rows)
    assert {r["rungs"] for r in rows} <= {1, 2} and rows[0]["rungs"] == 2
    finished = [r["score"] for r in rows if r["rungs"] == 2]
    assert rows[0]["score"] == max(finished)
    for row in rows:  # each trial a normal run folder in the sweep's
        run = folder / row["folder"].split("/")[-1]
        assert (run / "config.json").is_file() and (run / "eval.csv").is_file()
    assert len({r["lr"] for r in rows}) == 4
    saved = list(csv.DictReader(open(folder / "sweep.csv")))
    assert [float(r["score"]) for r in saved] == [r["score"] for r in rows]
    assert rows[0]["folder"] in messages[-2] and "best of 4 trials" in messages[-2]
    assert "win_greedy" in messages[-1] and "score_random" in messages[-1]
