"""``savanna study`` on games whose answers are known: a coin flip (chance alone), Nim (no
chance, a first player who wins with perfect play) and a coin biased towards seat 0; a match
at another seed inside the study's intervals; a killed study resumes with the same numbers;
the command's mistakes are one line."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from savanna.agents.arena.matches import play_match
from savanna.agents.arena.results import MatchResult
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.study import BUDGETS, StudySettings, run_study, variant_labels
from savanna.agents.study.balance import seat_rows
from savanna.agents.study.skill import chance_share, mixed_spread
from savanna.experiments.cli import main
from savanna.experiments.study_command import variants
from tests.agents.study_games import CoinFlip
from tests.agents.tiny_games import Nim

ROOT = Path(__file__).resolve().parents[2]
PERFECT = "tests.agents.study_games:PerfectAgent"
# Enough games that a step of a pure-chance chain reaches 60% with odds of 1 in 500.
SMALL = dict(balance_sims=(2, 8), balance_games=200, network=False, chain_top=4,
             chain_games=200, upset_sims=2, upset_games=200, chance_games=200, review_games=2,
             review_sims=16, reference="")


def inside(x, interval):
    return interval[0] <= x <= interval[1]


@pytest.fixture(scope="module")
def coin(tmp_path_factory):
    """A fair coin flip, Nim as the game without chance of the share of chance."""
    return run_study([CoinFlip(50)], tmp_path_factory.mktemp("coin"), StudySettings(**SMALL),
                     seed=3, workers=1, progress=False, reference=Nim()).variants[0]


def test_a_coin_flip_has_no_skill_chain_upsets_half_the_time_and_even_seats(coin):
    assert coin["chain"]["length"] == 0
    assert inside(0.5, coin["luck"]["upset"]["ci"])
    assert inside(0.5, coin["luck"]["chance"]["ci"])  # the other coin's side half the time
    for strength in coin["balance"]:
        for seat in strength["seats"]:
            assert inside(0.5, seat["win_ci"]), (strength["agent"], seat)
    assert coin["chain"]["chance_share_ci"][1] == 1.0  # as much chance as a coin can have
    assert coin["shape"]["decisions"]["mean"] == 2 and coin["shape"]["chance_nodes"]["mean"] == 1


def test_nim_a_perfect_first_player_never_loses_and_skill_counts(tmp_path):
    settings = StudySettings(**{**SMALL, "balance_games": 40, "chain_top": 32},
                             extra_agents=(PERFECT,))
    nim = run_study([Nim((2, 3, 4))], tmp_path, settings, seed=5, workers=1,
                    progress=False).variants[0]
    perfect = next(b for b in nim["balance"] if b["agent"] == PERFECT)
    # heaps 2, 3, 4: their xor is 5, so the first player wins with perfect play, every game
    assert [s["win_rate"] for s in perfect["seats"]] == [1.0, 0.0]
    assert perfect["first_seat_ci"][0] > 0.4
    assert nim["chain"]["length"] >= 1 and nim["chain"]["spread_ci"][0] > 0
    assert nim["luck"]["upset"]["ci"][1] < 0.5
    assert "chance" not in nim["luck"]  # no chance to resample
    assert nim["shape"]["chance_nodes"]["mean"] == 0


def test_a_seat_bias_is_found_with_its_sign_and_a_match_at_another_seed_agrees(tmp_path):
    study = run_study([CoinFlip(70)], tmp_path, StudySettings(**SMALL), seed=7, workers=1,
                      progress=False).variants[0]
    for strength in study["balance"]:
        first, second = strength["seats"]
        assert inside(0.7, first["win_ci"]) and first["win_ci"][0] > 0.5 > second["win_ci"][1]
        assert strength["first_seat_ci"][0] > 0
    # the same seat balance re-measured by the arena's match, at a seed the study never used
    again = play_match(CoinFlip(70), [RandomAgent()] * 2, games=800, seed=123_456, workers=1,
                       progress=False)
    random = next(b for b in study["balance"] if b["agent"] == "random")
    for seat, row in zip(random["seats"], seat_rows(again)):
        assert inside(row["win_rate"], seat["win_ci"])


def test_a_killed_study_resumes_with_no_batch_played_twice(tmp_path):
    script = ("import sys; from pathlib import Path; "
              "from savanna.agents.study import StudySettings, run_study; "
              "from tests.agents.study_games import CoinFlip; "
              f"run_study([CoinFlip(60)], Path(sys.argv[1]), StudySettings(**{SMALL!r}), "
              "seed=2, workers=1, progress=False)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    killed = tmp_path / "killed"
    child = subprocess.Popen([sys.executable, "-c", script, str(killed)], env=env, cwd=ROOT)
    while child.poll() is None and len(list(killed.rglob("*.pkl"))) < 3:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    kept = {p: p.stat().st_mtime_ns for p in killed.rglob("*.pkl")}
    assert 3 <= len(kept) and not (killed / "study.json").exists()
    resumed = run_study([CoinFlip(60)], killed, StudySettings(**SMALL), seed=2, workers=1,
                        progress=False)
    assert all(p.stat().st_mtime_ns == t for p, t in kept.items())  # none played again
    whole = run_study([CoinFlip(60)], tmp_path / "whole", StudySettings(**SMALL), seed=2,
                      workers=1, progress=False)
    assert resumed.to_json() == whole.to_json()
    assert [b["games"] for b in resumed.variants[0]["balance"]] == [200] * 3


def test_a_deep_study_plays_every_count_of_the_deep_budget(tmp_path):
    """The deep budget end to end, on the coin flip: one decision a seat, seconds."""
    deep = BUDGETS["deep"]
    # connect four's deep skill chain, the default reference, would take hours
    settings = StudySettings.budget("deep", reference="")
    run_study([CoinFlip(50)], tmp_path, settings, seed=1, workers=1, progress=False)
    assert json.loads((tmp_path / "plan.json").read_text())["settings"] == settings.to_json()
    data = json.loads((tmp_path / "study.json").read_text())
    assert data["budget"] == "deep" and "the deep budget" in (tmp_path / "report.html").read_text()
    assert StudySettings.budget("deep", chain_games=399).budget_name is None
    variant = data["variants"][0]
    strengths = ["random", *(f"mcts:sims={s}" for s in deep["balance_sims"])]
    assert [(b["agent"], b["games"]) for b in variant["balance"]] == [
        (agent, deep["balance_games"]) for agent in strengths]
    steps = variant["chain"]["steps"]
    assert [s["games"] for s in steps] == [deep["chain_games"]] * deep["chain_top"].bit_length()
    assert steps[-1]["stronger"] == f"mcts:sims={deep['chain_top']}"
    upset, chance = variant["luck"]["upset"], variant["luck"]["chance"]
    assert (upset["weaker"], upset["games"]) == (f"mcts:sims={deep['upset_sims']}",
                                                 deep["upset_games"])
    assert chance["games"] == deep["chance_games"]
    reviews = variant["shape"]["reviews"]
    assert (reviews["agent"], reviews["games"]) == (f"mcts:sims={deep['review_sims']}",
                                                    deep["review_games"])


def test_a_study_folder_keeps_its_plan(tmp_path):
    run_study([CoinFlip(50)], tmp_path, StudySettings(**{**SMALL, "balance_games": 16,
                                                         "chain_top": 1}),
              workers=1, progress=False)
    with pytest.raises(ValueError, match="holds a study with other settings"):
        run_study([CoinFlip(50)], tmp_path, StudySettings(**SMALL), workers=1, progress=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds files but no study"):
        run_study([CoinFlip(50)], tmp_path / "other", StudySettings(**SMALL), progress=False)


def test_workers_do_not_change_the_numbers(tmp_path):
    settings = StudySettings(**{**SMALL, "balance_games": 48, "chain_games": 32,
                                "upset_games": 32, "chance_games": 32})
    one, two = (run_study([CoinFlip(50)], tmp_path / str(w), settings, workers=w,
                          progress=False) for w in (1, 2))
    assert one.to_json() == two.to_json()


def test_the_report_holds_every_figure_and_the_files(coin, tmp_path_factory):
    folder = next(tmp_path_factory.getbasetemp().glob("coin*"))
    report = (folder / "report.html").read_text()
    assert report.count("<svg") == len(list((folder / "figures").glob("*.svg"))) == 6
    for name in ("balance", "chain", "luck", "shape"):
        assert (folder / f"{name}.csv").read_text().count("\n") > 1
    data = json.loads((folder / "study.json").read_text())
    assert data["variants"][0]["chain"]["length"] == coin["chain"]["length"]


def test_the_report_names_what_a_study_changes_and_the_folder_every_option(coin,
                                                                         tmp_path_factory):
    folder = next(tmp_path_factory.getbasetemp().glob("coin*"))
    assert coin["variant"] == "coin_flip 2p"  # seat_zero=50 is the default
    assert {p.name for p in (folder / "figures").glob("*.svg")} == {
        f"coin_flip_2p_{name}.svg" for name in
        ("balance", "first_seat", "chain_ratings", "chain_steps", "luck", "curves")}
    # the plan and the games' folders name every option, whatever the study compares, so that
    # a folder resumes under any labels
    plan = json.loads((folder / "plan.json").read_text())
    assert plan["variants"] == ["coin_flip 2p seat_zero=50"]
    assert plan["reference"] == "nim 2p heaps=2,3,4"
    assert (folder / "coin_flip_2p_seat_zero=50" / "parts").is_dir()
    assert (folder / "reference_nim_2p_heaps=2_3_4" / "parts").is_dir()


@pytest.mark.parametrize("game, options, players, labels", [
    ("banjooli", {}, [2, 3], ["banjooli 2p", "banjooli 3p"]),
    ("banjooli", {"terrain": 4}, [2], ["banjooli 2p"]),  # the default, not compared
    ("banjooli", {"terrain": 5, "berries": True}, [2], ["banjooli 2p terrain=5 berries=True"]),
    ("zebres", {"board": ["standard", "president"]}, None,
     ["zebres 2p board=standard", "zebres 2p board=president"]),
    ("zebres", {"board": "president", "first_placer": [0, 1]}, None,
     ["zebres 2p board=president first_placer=0", "zebres 2p board=president first_placer=1"]),
])
def test_a_variant_is_named_by_the_options_that_differ_from_the_defaults_or_are_compared(
        game, options, players, labels):
    assert variant_labels(variants(game, options, players)) == labels


@pytest.mark.parametrize("argv, message", [
    (["study", "chess", "--out", "x"], "unknown game"),
    (["study", "banjooli", "--players", "9", "--out", "x"], "takes 2 to 5 players, not 9"),
    (["study", "zebres", "--players", "3", "--out", "x"],
     "zebres takes 2 players, not 3 (--players)"),
    (["study", "zebres", "-o", "colour=red", "--out", "x"], "has no option"),
    (["study", "zebres", "--address", "auto", "--out", "x"], "--address"),
    (["study", "zebres", "--budget", "quick", "--threshold", "0.4", "--out", "x"],
     "threshold"),
    (["study", "zebres", "--reference", "banjooli", "--out", "x"], "has chance"),
])
def test_the_command_names_its_mistakes_in_one_line(argv, message, capsys, tmp_path,
                                                    monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow
def test_the_command_studies_a_shipped_game_and_resumes_its_folder(tmp_path, capsys):
    argv = ["study", "zebres", "--budget", "quick", "--no-network", "--reference", "none",
            "--workers", "2", "--no-progress", "--out", str(tmp_path)]
    assert main(argv) == 0
    first = (tmp_path / "study.json").read_text()
    assert "zebres 2p" in capsys.readouterr().out
    assert main(argv) == 0  # everything kept: nothing is played again, the same numbers
    assert (tmp_path / "study.json").read_text() == first
    data = json.loads(first)
    assert [b["agent"] for b in data["variants"][0]["balance"]] == [
        "random", "mcts:sims=16", "mcts:sims=64"]
    assert "chance" not in data["variants"][0]["luck"]  # Zèbres draws no chance
    # `savanna match` at a seed the study did not use: each seat's win rate inside its interval
    match = tmp_path.parent / "match"
    assert main(["match", "zebres", "random", "random", "--games", "200", "--seed", "99",
                 "--workers", "2", "--no-progress", "--no-records", "--out", str(match)]) == 0
    games = json.loads((match / "match.json").read_text())["per_game"]
    again = MatchResult("zebres", ["random", "random"], [{}, {}], 99,
                        np.array(games["seats"]), np.array(games["returns"]),
                        np.array(games["plies"]))
    random = data["variants"][0]["balance"][0]
    for seat, row in zip(random["seats"], seat_rows(again)):
        assert inside(row["win_rate"], seat["win_ci"])


def test_the_share_of_chance_finds_the_coin_flips_mixed_into_the_reference():
    reference = {"step_scores": [0.8, 0.7, 0.9], "step_games": [100, 100, 100]}
    for x in (0.0, 0.3, 0.75):  # the reference with a share x of its games replaced by coins
        spread = mixed_spread(x, reference["step_scores"], reference["step_games"])
        assert chance_share(spread, reference) == pytest.approx(x, abs=1e-6)
    assert chance_share(0.0, reference) == 1.0 and chance_share(-50.0, reference) == 1.0
    assert chance_share(5000.0, reference) == 0.0  # more skill than the reference
