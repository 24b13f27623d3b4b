"""The arena: seat rotation, intervals on a coin of known bias, reproducibility, ratings."""
import csv
import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest

from savanna.agents.arena.matches import (
    _init_worker,
    default_start_method,
    play_match,
    tournament,
)
from savanna.agents.arena.stats import elo_from_score, fit_elo, wilson_interval
from savanna.agents.play.random_agent import RandomAgent
from tests.agents.coin_game import CoinGame, ConstantAgent


def seat_zero_wins(choices):
    return [100, 0, 0]


def test_seats_rotate_so_each_agent_sits_first_half_the_time():
    result = play_match(CoinGame(seat_zero_wins), [ConstantAgent(0), ConstantAgent(1)],
                        games=10, workers=1, progress=False)
    assert (result.seats[:, 0] == 0).sum() == 5 and (result.seats[:, 1] == 0).sum() == 5
    wins, draws, losses = result.outcomes()
    assert (wins == (result.seats == 0)).all()
    assert [r["wins"] for r in result.summary()] == [5, 5]
    assert result.elo_difference()[0] == 0


def test_three_players_rotate_through_every_seat():
    game = CoinGame(lambda c: [0, 100, 0, 0], num_players=3)
    result = play_match(game, [ConstantAgent(0), ConstantAgent(0), ConstantAgent(1)], games=9,
                        workers=1, progress=False)
    for j in range(3):
        assert sorted(np.bincount(result.seats[:, j])) == [3, 3, 3]
    assert [r["wins"] for r in result.summary()] == [3, 3, 3]
    # each pair of agents shares one point per game: the scores of a game sum to P / 2
    assert np.allclose(result.scores().sum(axis=1), 1.5)


def strong_one(choices):
    """The seat that chose 1 against a 0 wins 60%, draws 15%, loses 25%."""
    if choices == (1, 0):
        return [60, 25, 15]
    if choices == (0, 1):
        return [25, 60, 15]
    return [50, 50, 0]


def test_intervals_cover_the_true_rates_of_a_known_coin_about_95_percent_of_the_time():
    truth = {"win": 0.60, "draw": 0.15, "loss": 0.25, "score": 0.675}
    covered = {k: 0 for k in (*truth, "elo")}
    repeats, n = 200, 40
    game = CoinGame(strong_one)
    for seed in range(repeats):
        row = play_match(game, [ConstantAgent(1), ConstantAgent(0)], games=n, seed=seed,
                         workers=1, progress=False, batch_size=n).summary()[0]
        for k, p in truth.items():
            low, high = row[k + "_ci"]
            covered[k] += low <= p <= high
        low, high = row["elo_ci"]
        covered["elo"] += low <= elo_from_score(truth["score"]) <= high
    for k, hits in covered.items():
        assert 0.89 <= hits / repeats <= 0.995, (k, hits)


def test_the_wilson_interval_has_95_percent_coverage_exactly():
    for n, p in ((30, 0.5), (40, 0.3), (100, 0.1)):
        coverage = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)
                       if wilson_interval(k / n, n)[0] <= p <= wilson_interval(k / n, n)[1])
        assert 0.92 <= coverage <= 0.975, (n, p, coverage)


def test_results_do_not_depend_on_the_worker_count_and_repeat_with_the_seed():
    game = CoinGame(strong_one)
    agents = [RandomAgent(), RandomAgent()]
    one = play_match(game, agents, games=24, seed=3, workers=1, progress=False)
    two = play_match(game, agents, games=24, seed=3, workers=2, progress=False,
                     start_method="fork")
    again = play_match(game, agents, games=24, seed=3, workers=1, progress=False)
    other = play_match(game, agents, games=24, seed=4, workers=1, progress=False)
    for a, b in ((one, two), (one, again)):
        assert (a.seats == b.seats).all() and (a.returns == b.returns).all()
        assert (a.points == b.points).all() and (a.plies == b.plies).all()
    assert not (one.returns == other.returns).all()


def test_a_compiled_game_with_chance_gives_the_same_results_in_worker_processes():
    from tests.agents.tiny_games import DiceRace

    game = DiceRace(max_turns=6)
    one = play_match(game, [RandomAgent(), RandomAgent()], games=8, seed=1, workers=1,
                     progress=False)
    two = play_match(game, [RandomAgent(), RandomAgent()], games=8, seed=1, workers=2,
                     progress=False, start_method="fork")
    assert (one.returns == two.returns).all() and (one.plies == two.plies).all()
    assert one.points is None  # DiceRace has no scores


def test_an_agent_that_plays_an_illegal_action_is_named():
    with pytest.raises(ValueError, match="agent constant:action=5 chose illegal action 5"):
        play_match(CoinGame(strong_one), [ConstantAgent(0), ConstantAgent(5)], games=2,
                   workers=1, progress=False)


def test_the_number_of_agents_must_match_the_seats():
    with pytest.raises(ValueError, match="2-player game: give 2 agents, got 3"):
        play_match(CoinGame(strong_one), [RandomAgent()] * 3, games=2, progress=False)


@pytest.mark.parametrize("play, message", [
    (lambda game, agents: play_match(game, agents, games=10**30),
     "games must be an int in 1..10000000, got 1000000000000000000000000000000"),
    (lambda game, agents: play_match(game, agents, games=True), "games must be an int in"),
    (lambda game, agents: play_match(game, agents, games=4, batch_size=10**12),
     "batch_size must be an int in 1..10000000"),
    (lambda game, agents: play_match(game, agents, games=4, workers=10**6),
     "workers must be an int in 1..1024"),
    (lambda game, agents: tournament(game, agents * 2, games_per_pair=10**8),
     "games_per_pair must be an int in 1..10000000"),
])
def test_counts_past_their_maximum_are_refused_before_anything_is_built(play, message):
    """A huge count was a list of batches (or a pool) built until MemoryError."""
    with pytest.raises(ValueError, match=re.escape(message)):
        play(CoinGame(strong_one), [RandomAgent(), RandomAgent()])


def test_saved_results_hold_every_game(tmp_path):
    result = play_match(CoinGame(strong_one), [ConstantAgent(1), RandomAgent()], games=6,
                        workers=1, progress=False)
    result.save(tmp_path)
    data = json.loads((tmp_path / "match.json").read_text())
    assert data["agents"] == ["constant:action=1", "random"]
    assert data["per_game"]["returns"] == result.returns.tolist()
    games = list(csv.DictReader(open(tmp_path / "games.csv")))
    assert [float(g["return_0"]) for g in games] == result.returns[:, 0].tolist()
    summary = list(csv.DictReader(open(tmp_path / "summary.csv")))
    assert [int(s["wins"]) + int(s["draws"]) + int(s["losses"]) for s in summary] == [6, 6]
    assert "Elo difference (constant:action=1 - random)" in result.table()


def test_results_are_not_saved_over_earlier_ones_unless_asked(tmp_path):
    game, agents = CoinGame(strong_one), [ConstantAgent(1), RandomAgent()]
    first = play_match(game, agents, games=4, seed=1, workers=1, progress=False)
    second = play_match(game, agents, games=6, seed=2, workers=1, progress=False)
    first.save(tmp_path)
    with pytest.raises(ValueError, match="already holds files"):
        second.save(tmp_path)
    assert json.loads((tmp_path / "match.json").read_text())["games"] == 4
    second.save(tmp_path, overwrite=True)
    assert json.loads((tmp_path / "match.json").read_text())["games"] == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "match.json",
                                                          "summary.csv"]  # no temporaries


def test_fitted_ratings_recover_known_elo_differences():
    true = np.array([0.0, 100.0, 250.0])
    expected = 1 / (1 + 10 ** ((true[None, :] - true[:, None]) / 400))
    games = np.full((3, 3), 1e6)
    np.fill_diagonal(games, 0)
    ratings, errors = fit_elo(expected * games, games)
    assert np.allclose(ratings - ratings.mean(), true - true.mean(), atol=0.5)
    assert (errors < 1).all()


def test_a_perfect_record_keeps_a_finite_rating():
    ratings, errors = fit_elo(np.array([[0, 10.0], [0, 0]]), np.array([[0, 10.0], [10, 0]]))
    assert np.isfinite(ratings).all() and ratings[0] > ratings[1] and np.isfinite(errors).all()


def test_a_round_robin_ranks_the_strong_agent_first(tmp_path):
    agents = [ConstantAgent(0), ConstantAgent(1), RandomAgent()]
    result = tournament(CoinGame(strong_one), agents, games_per_pair=40, workers=1,
                        progress=False)
    assert len(result.matches) == 3
    assert result.ranking()[0]["agent"] == "constant:action=1"
    assert abs(result.ratings.sum()) < 1e-6
    result.save(tmp_path)
    ratings = list(csv.DictReader(open(tmp_path / "ratings.csv")))
    assert [r["agent"] for r in ratings] == [r["agent"] for r in result.ranking()]
    assert "score of row against column" in result.table()
    with pytest.raises(ValueError, match="already holds files"):
        result.save(tmp_path)


def test_a_three_player_round_robin_plays_every_group_of_three():
    game = CoinGame(lambda c: [34, 33, 33, 0] if c.count(1) != 1 else
                    [100 * c[0], 100 * c[1], 100 * c[2], 0], num_players=3)
    agents = [ConstantAgent(1), ConstantAgent(0), RandomAgent(), ConstantAgent(0)]
    result = tournament(game, agents, games_per_pair=12, workers=1, progress=False)
    assert [m for m, _ in result.matches] == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert (result.pair_games + np.eye(4) > 0).all()
    assert result.ranking()[0]["agent"] == "constant:action=1"


@pytest.mark.slow
def test_spawned_workers_give_the_same_results():
    from tests.agents.tiny_games import Nim

    one = play_match(Nim(), [RandomAgent(), RandomAgent()], games=6, seed=2, workers=1,
                     progress=False)
    two = play_match(Nim(), [RandomAgent(), RandomAgent()], games=6, seed=2, workers=2,
                     progress=False, start_method="spawn")
    assert (one.returns == two.returns).all() and (one.plies == two.plies).all()


def test_workers_are_spawned_once_torch_is_loaded(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", sys.modules.get("torch", object()))
    assert default_start_method() == "spawn"


def test_worker_processes_run_torch_on_one_thread():
    """The workers are the parallelism: torch's OpenMP threads in each would spin against
    the others (a ppo-mcts match on two workers ran 7x slower than on one)."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        _init_worker(None, [], [])
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)


def test_agents_defined_in_a_notebook_are_played_here_not_sent_to_spawned_workers(monkeypatch):
    """A spawned worker cannot import a class from a notebook: the pool would wait forever."""
    notebook_agent = type("NotebookAgent", (ConstantAgent,), {"__module__": "__main__"})
    monkeypatch.setitem(sys.modules, "__main__", type(sys)("__main__"))  # no __file__
    game = CoinGame(strong_one)
    agents = [notebook_agent(0), ConstantAgent(1)]
    with pytest.warns(UserWarning, match="NotebookAgent defined interactively"):
        here = play_match(game, agents, games=8, seed=5, workers=2, progress=False,
                          start_method="spawn")
    alone = play_match(game, agents, games=8, seed=5, workers=1, progress=False)
    assert (here.returns == alone.returns).all()


def test_a_tournament_plays_all_its_matches_on_one_pool_with_the_same_results(monkeypatch):
    """Workers start once per tournament, not once per match (spawned workers import torch
    and load the compiled code: seconds each); the results are those of one process."""
    import savanna.agents.arena.matches

    pools = []
    pooled = savanna.agents.arena.matches._pooled
    monkeypatch.setattr(savanna.agents.arena.matches, "_pooled",
                        lambda *a: pools.append(1) or pooled(*a))
    field = [ConstantAgent(0), ConstantAgent(1), RandomAgent()]
    one = tournament(CoinGame(strong_one), field, games_per_pair=12, workers=1,
                     progress=False)
    two = tournament(CoinGame(strong_one), field, games_per_pair=12, workers=2,
                     progress=False, start_method="fork")
    assert pools == [1]
    assert (one.ratings == two.ratings).all() and len(two.matches) == 3
    for (_, a), (_, b) in zip(one.matches, two.matches):
        assert (a.returns == b.returns).all() and (a.seats == b.seats).all()


def test_a_pool_ends_its_workers_whatever_sigterm_handler_the_parent_installed():
    """Ray's driver installs a SIGTERM handler that never returns in a forked child: the
    workers must not inherit it, or the pool waits for them forever."""
    code = ("import signal, time; signal.signal(signal.SIGTERM, lambda *_: time.sleep(1e6)); "
            "from savanna import make_game; from savanna.agents import make_agent, play_match; "
            "r = play_match(make_game('zebres'), [make_agent('random')] * 2, games=4, "
            "workers=2, progress=False, start_method='fork'); print(r.games)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "4"
