"""``savanna study`` on games whose answers are known: a coin flip (chance alone), Nim (no
chance, a first player who wins with perfect play), Nim with a share of its games replaced by
coin flips (a known share of chance), Nim without choice (no skill) and a coin biased towards
seat 0; a match at another seed agrees after Holm's correction; a killed study resumes with
the same numbers; the hand-written estimators agree with SciPy's and statsmodels'; the
command's mistakes are one line."""
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
from savanna.agents.play.registry import make_agent
from savanna.cli.main import main
from savanna.studies import BUDGETS, StudySettings, run_study, study, variant_labels
from savanna.studies.balance import seat_rows
from savanna.studies.coupled import play_keyed
from savanna.studies.known import LateCoin, MixedNim, PerfectAgent
from savanna.studies.luck import chance_sensitivity
from savanna.studies.match_parts import play_planned, review_records
from savanna.studies.plan import plan, skill_population
from savanna.studies.ratings import Comparisons, fit
from savanna.studies.run import variants
from savanna.studies.shape import clarity, drama
from savanna.studies.significance import holm, score_tests
from savanna.studies.skill import measure_skill
from tests.agents.study_games import CoinFlip
from tests.agents.tiny_games import Nim

ROOT = Path(__file__).resolve().parents[2]
PERFECT = "tests.agents.study_games:PerfectAgent"
# Enough games that a step of a pure-chance chain reaches 60% with odds of 1 in 500.
SMALL = dict(balance_sims=(2, 8), balance_games=200, network=False, chain_top=4,
             chain_games=200, upset_sims=2, upset_games=200, chance_games=200, review_games=2,
             review_sims=16, reference="", resamples=100)
# The skill measures' known answers: Nim's population, 100 games a direct match.
SKILL = StudySettings(**{**SMALL, "chain_top": 8, "chain_games": 100, "resamples": 200})


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
    chance = coin["luck"]["chance"]
    assert inside(0.5, chance["redrawn_ci"])  # the other coin's side half the time
    assert chance["control"] == 0  # the coin kept: the choices change nothing
    assert inside(0.5, chance["chance_alone_ci"])
    for strength in coin["balance"]:
        for seat in strength["seats"]:
            assert inside(0.5, seat["win_ci"]), (strength["agent"], seat)
            assert not seat["finding"]
    assert not coin["chain"]["skill_measured"] and "chance_share" not in coin["chain"]
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
    assert nim["chain"]["length"] >= 1 and nim["chain"]["dispersion_ci"][0] > 0
    assert nim["luck"]["upset"]["ci"][1] < 0.5
    assert "chance" not in nim["luck"]  # no chance to resample
    assert nim["shape"]["chance_nodes"]["mean"] == 0


def test_a_seat_bias_is_found_after_holm_and_a_match_at_another_seed_agrees(tmp_path):
    whole = run_study([CoinFlip(70)], tmp_path, StudySettings(**SMALL), seed=7, workers=1,
                      progress=False)
    study = whole.variants[0]
    assert whole.tested == 6  # two seats at each of three strengths
    for strength in study["balance"]:
        first, second = strength["seats"]
        assert inside(0.7, first["win_ci"]) and first["win_ci"][0] > 0.5 > second["win_ci"][1]
        assert strength["first_seat_ci"][0] > 0
        assert first["finding"] and second["finding"]
    # the same seat balance re-measured by the arena's match, at a seed the study never used:
    # no seat differs, two-sample, after Holm's correction over the seats
    again = play_match(CoinFlip(70), [RandomAgent()] * 2, games=800, seed=123_456, workers=1,
                       progress=False)
    random = next(b for b in study["balance"] if b["agent"] == "random")
    assert not holm([_two_sample(seat["win_rate"], seat["games"], row["win_rate"], row["games"])
                     for seat, row in zip(random["seats"], seat_rows(again))]).any()


def _two_sample(rate_a, n_a, rate_b, n_b):
    """The two-sided p-value of two win rates being the same (Fisher's exact test)."""
    from scipy.stats import fisher_exact

    a, b = round(rate_a * n_a), round(rate_b * n_b)
    return fisher_exact([[a, n_a - a], [b, n_b - b]]).pvalue


def test_a_killed_study_resumes_with_no_batch_played_twice(tmp_path):
    script = ("import sys; from pathlib import Path; "
              "from savanna.studies import StudySettings, run_study; "
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
    assert _numbers(resumed) == _numbers(whole)
    assert [b["games"] for b in resumed.variants[0]["balance"]] == [200] * 3


@pytest.mark.parametrize("name", ["quick", pytest.param("deep", marks=pytest.mark.slow)])
def test_a_study_plays_every_count_of_its_budget(name, tmp_path):
    """A budget end to end, on the coin flip: one decision a seat, seconds (the deep one in
    a minute)."""
    budget = BUDGETS[name]
    # connect four's skill chain, the default reference, would take minutes to hours
    settings = StudySettings.budget(name, reference="")
    run_study([CoinFlip(50)], tmp_path, settings, seed=1, workers=1, progress=False)
    assert json.loads((tmp_path / "plan.json").read_text())["settings"] == settings.to_json()
    data = json.loads((tmp_path / "study.json").read_text())
    assert data["budget"] == name and f"the {name} budget" in (tmp_path / "report.html").read_text()
    assert StudySettings.budget(name, chain_games=399).budget_name is None
    variant = data["variants"][0]
    strengths = ["random", *(f"mcts:sims={s}" for s in budget["balance_sims"])]
    assert [(b["agent"], b["games"]) for b in variant["balance"]] == [
        (agent, budget["balance_games"]) for agent in strengths]
    steps = variant["chain"]["matches"]
    chain = budget["chain_top"].bit_length() + 1
    assert [s["games"] for s in steps] == [budget["chain_games"]] * (2 * chain - 3 + 2 * 3)
    assert steps[chain - 2]["stronger"] == f"mcts:sims={budget['chain_top']}"
    upset, chance = variant["luck"]["upset"], variant["luck"]["chance"]
    assert (upset["weaker"], upset["games"]) == (f"mcts:sims={budget['upset_sims']}",
                                                 budget["upset_games"])
    assert chance["games"] == budget["chance_games"]
    assert data["run"]["wall_seconds"] > 0 and data["run"]["package_version"]
    reviews = variant["shape"]["reviews"]
    assert (reviews["agent"], reviews["games"]) == (f"mcts:sims={budget['review_sims']}",
                                                    budget["review_games"])


def test_a_study_folder_keeps_its_plan(tmp_path):
    run_study([CoinFlip(50)], tmp_path, StudySettings(**{**SMALL, "balance_games": 16,
                                                         "chain_top": 1}),
              workers=1, progress=False)
    with pytest.raises(ValueError, match="holds a study with other settings"):
        run_study([CoinFlip(50)], tmp_path, StudySettings(**SMALL), workers=1, progress=False)
    old = tmp_path / "old"  # a folder of the first version of the study
    old.mkdir()
    (old / "plan.json").write_text(json.dumps({"format": "savanna-study-plan", "seed": 0}))
    with pytest.raises(ValueError, match="an earlier version of savanna study"):
        run_study([CoinFlip(50)], old, StudySettings(**SMALL), workers=1, progress=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds files but no study"):
        run_study([CoinFlip(50)], tmp_path / "other", StudySettings(**SMALL), progress=False)


def test_workers_do_not_change_the_numbers(tmp_path):
    settings = StudySettings(**{**SMALL, "balance_games": 48, "chain_games": 32,
                                "upset_games": 32, "chance_games": 32})
    one, two = (run_study([CoinFlip(50)], tmp_path / str(w), settings, workers=w,
                          progress=False) for w in (1, 2))
    assert _numbers(one) == _numbers(two)


def _numbers(study):
    """A study's JSON less how the run went (time, workers)."""
    data = study.to_json()
    del data["run"]
    return data


def test_the_report_holds_every_figure_and_the_files(coin, tmp_path_factory):
    folder = next(tmp_path_factory.getbasetemp().glob("coin*"))
    report = (folder / "report.html").read_text()
    assert report.count("<svg") == len(list((folder / "figures").glob("*.svg"))) == 7
    for name in ("balance", "chain", "matches", "luck", "shape", "games"):
        assert (folder / f"{name}.csv").read_text().count("\n") > 1
    data = json.loads((folder / "study.json").read_text())
    assert data["variants"][0]["chain"]["length"] == coin["chain"]["length"]
    assert data["version"] == 2 and data["run"]["cpu_seconds"] > 0 and data["rows_tested"] == 6
    assert "seats even (no seat differs after Holm's correction over 6 rows)" in report
    assert "no skill measured" in report and "a first look" not in report
    ratings = (folder / "chain.csv").read_text().splitlines()
    assert ratings[0].startswith("variant,agent,elo,elo_ci_low,elo_ci_high,games,dispersion")
    assert len(ratings) == 1 + len(coin["chain"]["population"])
    games = (folder / "games.csv").read_text().splitlines()
    assert games[0] == "variant,match,game,match_seed,agents,returns,plies"
    assert games[1].startswith("coin_flip 2p,balance random,0,")


def test_the_coin_tossed_first_is_sure_at_every_decision_and_no_move_stands_out(coin,
                                                                               tmp_path_factory):
    reviews = coin["shape"]["reviews"]
    # the coin is tossed before the first choice: every search sees the winner win
    assert reviews["uncertainty"]["mean"] == 0 and reviews["uncertainty"]["n"] == 2
    # both choices change nothing: every simulation through either returns the same
    assert reviews["clarity_narrowness"]["mean"] == 1
    assert reviews["clarity_variance"]["mean"] == 0
    folder = next(tmp_path_factory.getbasetemp().glob("coin*"))
    shape = (folder / "shape.csv").read_text()
    assert all(f",{name}," in shape for name in ("uncertainty", "clarity_narrowness",
                                                 "clarity_variance"))
    assert "uncertainty 0.00 [0.00, 0.00], clarity: narrowness 1.00" in (
        folder / "report.html").read_text()


def test_uncertainty_is_the_winners_mean_distance_from_a_sure_win():
    # two players: the expected result is (value + 1) / 2; the winner is seat 0
    even, sure = [0.0, 0.0], [1.0, -1.0]
    found = drama([np.array([even, sure, sure, sure]), np.array([[0.5, -0.5]] * 2),
                   np.array([even])], [0, 1, -1])
    per_game = [np.mean([0.5, 0, 0, 0]), 1 - 0.25]  # the drawn game is left out
    assert found["uncertainty"]["mean"] == pytest.approx(np.mean(per_game))
    assert found["uncertainty"]["n"] == 2
    low, high = found["uncertainty"]["ci"]
    assert 0 <= low <= high <= 1  # bounded as the measure is
    # three players: a value of -1/2 (a sole loser's) is an expected result of 0
    three = drama([np.array([[-0.5, 0.25, 0.25]])], [0])
    assert three["uncertainty"]["mean"] == pytest.approx(1.0)


def test_clarity_is_ludiis_narrowness_and_variance_of_the_moves_values():
    moves = [[[1.0, -1.0],            # mean 0: counts from 3/4, the best alone: 1/2
              [0.5, 0.5, 0.5],        # every move the best: 1, no spread
              [0.3]],                 # no choice: left out
             [[1.0, 0.9, 0.0, 0.0]],  # mean 0.475, counts from 0.86875: 2 of 4
             [[0.2], [-0.4]]]         # no decision with a choice: no clarity
    found = clarity(moves, 2)
    assert found["clarity_narrowness"]["mean"] == pytest.approx(np.mean([0.75, 0.5]))
    assert found["clarity_narrowness"]["n"] == 2
    variances = [np.mean([1.0, 0.0]), np.var([1.0, 0.9, 0.0, 0.0])]
    assert found["clarity_variance"]["mean"] == pytest.approx(np.mean(variances))
    assert clarity([[[0.3]]], 3)["clarity_variance"]["n"] == 0


def _reviewed(game, games, tmp_path):
    """The study's reviews of ``games`` random games of ``game``: their drama and clarity."""
    played = play_match(game, [RandomAgent()] * 2, games=games, seed=4, workers=1,
                        progress=False, record=True)
    values, moves = review_records(game, played.records, "mcts:sims=64", tmp_path, 0,
                                   progress=False)
    winners = [int(np.argmax(r.returns)) for r in played.records]
    return drama(values, winners), clarity(moves, 2)


def test_a_game_without_choice_is_sure_and_has_no_clarity_to_measure(tmp_path):
    # heaps 1, 1, 0: seat 1 always wins; seat 0's two moves (either heap) both lose
    found, clear = _reviewed(MixedNim((1, 1, 0)), 4, tmp_path / "two")
    assert found["uncertainty"]["mean"] == 0 and found["uncertainty"]["n"] == 4
    assert clear["clarity_narrowness"]["mean"] == 1 and clear["clarity_variance"]["mean"] == 0
    # heaps 1, 0, 0: one move, and seat 0 wins by it: no decision with a choice
    found, clear = _reviewed(MixedNim((1, 0, 0)), 4, tmp_path / "one")
    assert found["uncertainty"]["mean"] == 0 and found["uncertainty"]["n"] == 4
    assert clear["clarity_narrowness"]["n"] == clear["clarity_variance"]["n"] == 0


def test_a_coin_tossed_last_keeps_the_outcome_open_until_it_is_revealed(tmp_path):
    found, clear = _reviewed(LateCoin(50), 20, tmp_path)
    # 1/2 at each player's choice (even chances), 0 at the reveal: 1/3. The search's value of
    # an even position is a mean of 64 tosses (standard error 1/8): each choice's uncertainty
    # is 1/2 within 1/16 or so, and the winners, half each seat, cancel most of it
    assert found["uncertainty"]["mean"] == pytest.approx(1 / 3, abs=0.05)
    assert clear["clarity_narrowness"]["n"] == 20  # the two choices are decisions to measure


def test_the_report_names_what_a_study_changes_and_the_folder_every_option(coin,
                                                                         tmp_path_factory):
    folder = next(tmp_path_factory.getbasetemp().glob("coin*"))
    assert coin["variant"] == "coin_flip 2p"  # seat_zero=50 is the default
    assert {p.name for p in (folder / "figures").glob("*.svg")} == {
        f"coin_flip_2p_{name}.svg" for name in
        ("balance", "first_seat", "chain_ratings", "chain_steps", "luck", "shape", "curves")}
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


@pytest.mark.parametrize("kwargs, message", [
    ({"players": [3]}, "zebres takes 2 players, not 3 (players)"),
    ({"options": {"num_players": 2}}, "give the player counts as players, not as the option"),
    ({"address": "auto"}, "address is the Ray cluster's: give it with ray=True"),
    ({"budget": "huge"}, "budget must be one of quick, standard, deep"),
])
def test_study_names_its_mistakes_in_its_own_words_not_the_command_lines(kwargs, message,
                                                                          tmp_path):
    """A notebook's ``study(...)`` is told of its arguments, never of a flag it did not type."""
    with pytest.raises(ValueError) as err:
        study("zebres", out=tmp_path / "s", **kwargs)
    assert message in str(err.value) and "--" not in str(err.value)
    assert not (tmp_path / "s").exists()


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
    (["study", "--out", "x"], "give a game to study"),
    (["study", "zebres", "--calibrate", "--out", "x"], "--calibrate studies its own games"),
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
    resumed = json.loads((tmp_path / "study.json").read_text())
    assert {k: v for k, v in resumed.items() if k != "run"} == {
        k: v for k, v in json.loads(first).items() if k != "run"}  # "run": how long it took
    data = json.loads(first)
    assert [b["agent"] for b in data["variants"][0]["balance"]] == [
        "random", "mcts:sims=16", "mcts:sims=64"]
    assert "chance" not in data["variants"][0]["luck"]  # Zèbres draws no chance
    # `savanna match` at a seed the study did not use: no seat's win rate differs, two-sample,
    # after Holm's correction
    match = tmp_path.parent / "match"
    assert main(["match", "zebres", "random", "random", "--games", "200", "--seed", "99",
                 "--workers", "2", "--no-progress", "--no-records", "--out", str(match)]) == 0
    games = json.loads((match / "match.json").read_text())["per_game"]
    again = MatchResult("zebres", ["random", "random"], [{}, {}], 99,
                        np.array(games["seats"]), np.array(games["returns"]),
                        np.array(games["plies"]))
    random = data["variants"][0]["balance"][0]
    assert not holm([_two_sample(seat["win_rate"], seat["games"], row["win_rate"], row["games"])
                     for seat, row in zip(random["seats"], seat_rows(again))]).any()


# ----- the skill measures on games whose answers are known ---------------------------------------

def _direct_matches(game, settings, seed, folder):
    """``(agents, result)`` of every direct match of a study's skill population."""
    chain = [m for m in plan(game, settings, seed) if m.section == "chain"]
    results = play_planned(game, chain, folder, workers=1, progress=False)
    return [(m.agents, results[m.name]) for m in chain]


@pytest.fixture(scope="module")
def nim_reference(tmp_path_factory):
    """Nim's skill population at a seed (played once): the reference of the x%-Nim games."""
    played = {}

    def at(seed):
        if seed not in played:
            played[seed] = _direct_matches(MixedNim(), SKILL, 100 + seed,
                                           tmp_path_factory.mktemp(f"nim{seed}"))
        return played[seed]
    return at


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
@pytest.mark.parametrize("coin", [0, pytest.param(25, marks=pytest.mark.slow), 50,
                                  pytest.param(75, marks=pytest.mark.slow), 100])
def test_the_share_of_chance_of_nim_mixed_with_coin_flips_is_the_share_mixed_in(
        coin, seed, nim_reference, tmp_path):
    """Duersch et al.'s x%-chess on Nim: x of the games replaced by a coin flip, measured
    against Nim itself (x = 0: Nim against Nim); the interval holds x."""
    skill = measure_skill(skill_population(SKILL),
                          _direct_matches(MixedNim(coin=coin), SKILL, seed, tmp_path),
                          SKILL.threshold, nim_reference(seed), SKILL.resamples, seed)
    if "chance_share" in skill:
        assert inside(coin / 100, skill["chance_share_ci"]), skill["chance_share_ci"]
    else:  # no skill told apart: a pure coin (or nearly), never Nim at full skill
        assert coin >= 75 and not skill["skill_measured"]
    assert skill["skill_measured"] == ("chance_share" in skill)


def test_nim_without_choice_measures_no_skill_not_a_share_of_chance(nim_reference, tmp_path):
    """Heaps 1, 1, 0: seat 1 always wins, whoever plays: no skill and no chance."""
    skill = measure_skill(skill_population(SKILL),
                          _direct_matches(MixedNim((1, 1, 0)), SKILL, 0, tmp_path),
                          SKILL.threshold, nim_reference(0), SKILL.resamples, 0)
    assert not skill["skill_measured"] and skill["no_skill_p"] == 1.0
    assert "chance_share" not in skill and skill["length"] == 0 and skill["dispersion"] == 0


def test_nim_with_a_perfect_player_has_a_chain_of_three(tmp_path):
    settings = StudySettings(**{**SMALL, "chain_top": 8, "chain_games": 100},
                             other_agents=(PERFECT,))
    skill = measure_skill(skill_population(settings),
                          _direct_matches(MixedNim(), settings, 4, tmp_path),
                          settings.threshold, None, 100, 4)
    assert skill["length"] >= 3 and skill["longest"][-1] == PERFECT, skill["longest"]
    assert skill["skill_measured"] and skill["length_ci"][0] >= 2


@pytest.mark.slow
def test_a_fair_coin_has_no_skill_chain_in_19_of_20_seeds_at_standard(tmp_path):
    settings = StudySettings.budget("standard", reference="", network=False)
    lengths = [measure_skill(skill_population(settings),
                             _direct_matches(CoinFlip(50), settings, seed, tmp_path / str(seed)),
                             settings.threshold, None, 50, seed)["length"]
               for seed in range(20)]
    assert sum(n == 0 for n in lengths) >= 19, lengths


# ----- chance alone, by common random numbers -----------------------------------------------------

def test_keyed_play_redraws_decisions_only_where_positions_differ():
    """Nim with half its games a coin: chance is drawn once, first; two chance streams that
    draw the same first outcome must give the same game, decision for decision."""
    game, agents = MixedNim(coin=50), [make_agent("mcts:sims=4,temperature=1")] * 2
    a, b = (play_keyed(game, agents, 11, chance, 0, 80) for chance in (1, 2))
    c = play_keyed(game, agents, 12, 1, 0, 80)
    coin_a, coin_b = a[2] == 1, b[2] == 1  # a coin's game is one decision long, Nim's 3 or more
    nim = ~coin_a & ~coin_b
    assert nim.sum() > 10 and (a[1][nim] == b[1][nim]).all() and (a[2][nim] == b[2][nim]).all()
    assert (a[1][~coin_a & (c[2] > 1)] != c[1][~coin_a & (c[2] > 1)]).any()  # other seeds


def test_chance_alone_is_zero_for_a_deterministic_game_and_players():
    game, agents = Nim(), [PerfectAgent()] * 2
    parts = [play_keyed(game, agents, seed, chance, 0, 40)
             for seed, chance in ((1, 1), (1, 2), (2, 1))]
    results = [MatchResult("nim", ["perfect"] * 2, [{}, {}], 0, p[0], p[1], p[2])
               for p in parts]
    measured = chance_sensitivity(*results)
    assert measured["redrawn"] == measured["control"] == measured["chance_alone"] == 0
    assert measured["chance_alone_ci"] == (0.0, 0.0) and inside(0, measured["redrawn_ci"])


# ----- the hand-written estimators against the libraries ----------------------------------------

def test_holm_is_statsmodels_holm(monkeypatch):
    """Against ``multipletests`` on 500 sets of p-values; its ``gc.collect()`` at each call
    (about half a second in a test worker's heap, nothing to do with the answer) is skipped."""
    import gc

    from statsmodels.stats.multitest import multipletests

    monkeypatch.setattr(gc, "collect", lambda *generation: 0)
    rng = np.random.default_rng(0)
    for _ in range(500):
        p = rng.uniform(0, 0.08, rng.integers(1, 15))
        assert (holm(p) == multipletests(p, alpha=0.05, method="holm")[0]).all()


def test_the_score_test_is_scipys_t_test_with_draws_and_exact_binomial_without():
    from scipy.stats import binomtest, ttest_1samp

    y = np.random.default_rng(1).choice([0.0, 0.5, 1.0], 60, p=[0.3, 0.1, 0.6])
    mean, low, high, p = score_tests([y], 0.5)[0]
    test = ttest_1samp(y, 0.5)
    assert p == pytest.approx(test.pvalue, rel=1e-9)
    assert (low, high) == pytest.approx(tuple(test.confidence_interval()), rel=1e-9)
    wins = (y > 0.25).astype(float)
    _, low, high, p = score_tests([wins], 0.4)[0]
    exact = binomtest(int(wins.sum()), 60, 0.4)
    assert p == exact.pvalue and (low, high) == tuple(exact.proportion_ci())


def test_the_clustered_ratings_are_statsmodels_logit_clustered_by_game():
    """Three agents in three-player games (one agent in two seats): the ratings and their
    covariance clustered by game against statsmodels' logistic regression, the same games."""
    import statsmodels.api as sm

    rng = np.random.default_rng(2)
    strength = np.array([0.0, 0.6, 1.1])
    matches = []
    for agents in (["a", "b", "b"], ["b", "c", "c"], ["c", "a", "a"]):
        noise = rng.gumbel(size=(400, 3))
        returns = strength[["abc".index(x) for x in agents]] + noise
        matches.append((agents, MatchResult("g", agents, [{}] * 3, 0, np.tile(
            np.arange(3), (400, 1)), returns, np.ones(400, int))))
    comparisons = Comparisons.of(["a", "b", "c"], matches)
    rows, y, groups = [], [], []
    for m, (pairs, s) in enumerate(zip(comparisons.pairs, comparisons.scores)):
        for g in range(len(s)):
            for (i, j), score in zip(pairs, s[g]):
                x = np.zeros(3)
                x[i], x[j] = 1, -1
                rows.append(x[1:])  # a's rating 0
                y.append(score)
                groups.append(m * 1000 + g)
    model = sm.GLM(np.array(y), np.array(rows), family=sm.families.Binomial()).fit(
        cov_type="cluster", cov_kwds={"groups": np.array(groups)})
    ours = fit(comparisons)
    elo = ours.elo - ours.elo[0]
    assert elo[1:] == pytest.approx(model.params * 400 / np.log(10), abs=3)  # virtual draws
    for k in (1, 2):
        theirs = np.sqrt(model.cov_params()[k - 1, k - 1]) * 400 / np.log(10)
        assert ours.difference_error(0, k) == pytest.approx(theirs, rel=0.1)


@pytest.mark.slow
def test_the_command_calibrates_itself_on_the_known_answers(tmp_path, capsys):
    assert main(["study", "--calibrate", "--budget", "quick", "--workers", "2",
                 "--no-progress", "--out", str(tmp_path)]) == 0
    checks = capsys.readouterr().out.splitlines()[:-1]
    assert len(checks) == 11 and all(" expected " in line for line in checks)
    # Every known answer holds at quick or is inconclusive (too few games to tell the agents
    # apart), but the biased coin's seat findings: with 60 games a strength, a seat that wins
    # 70% survives Holm's correction over every variant's seat rows (48) only some of the
    # time (2 of its 6 rows at seed 0; the guide claims them at standard), so that line may
    # fail.
    assert sum("seats after Holm" in line for line in checks) == 1
    assert not [line for line in checks
                if "DOES NOT HOLD" in line and "seats after Holm" not in line]
