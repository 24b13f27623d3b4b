"""``savanna.agents.review``: one row per decision of a recorded tournament game (chance outcomes
skipped), each the ``analyse`` of that position with the same agent and seed, the loss computed
from that analysis (a move it never tried valued by a search after it), every mark shown
confirmed beyond their noise by three searches four times deeper, the labels exactly the
confirmed drops past one, two and three thresholds, each player's summary its own rows, an
average drop and an accuracy that rank random clicks below a search, and a CSV that says the
same as the array."""
import csv
import io
import math
import threading

import numpy as np
import pytest
from scipy import stats

from savanna import make_game
from savanna.agents import make_agent, play_match, review
from savanna.agents.play.analysis import analyse, move_value
from savanna.agents.play.review import (
    CHANCE_DRAWS,
    DEFAULT_AGENT,
    DEFAULT_CONFIRM,
    DEFAULT_REPEATS,
    bootstrap_interval,
    deeper,
    default_agent,
    move_accuracy,
)
from savanna.agents.play.review_scores import (
    accuracy_by_agent,
    by_agent,
    drop_by_agent,
    expected_drops,
    sample_positions,
)
from savanna.records import read_records, write_records
from savanna.seats import seat_act

AGENT = "mcts:sims=24"


def write_tournament_game(folder, name="bonobo"):
    """A records file of two games played by a match with records, as ``savanna match`` writes
    it; Bonobo has chance (draws) and hidden cards, so that not every event is a decision."""
    result = play_match(make_game(name), [make_agent("mcts:sims=8"), make_agent("greedy")],
                        games=2, seed=3, workers=1, progress=False, record=True)
    return write_records(folder / "records.jsonl", result.records)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return read_records(write_tournament_game(tmp_path_factory.mktemp("match")))[1]


def loss_of(game, position, action, agent, rng, stream):
    """The analysis of ``position`` by ``agent`` and the mover's loss by ``action``: its mean
    return through the most visited move minus that through ``action``, or, for a move the
    search never tried, minus ``move_value`` of it (chance drawn from ``stream``)."""
    found = analyse(game, position, agent, rng=rng)
    mine = f"value_{found.player}"
    played = next(r for r in found.rows if r["action"] == action)[mine]
    if math.isnan(played):
        played = move_value(game, position, action, agent, np.random.default_rng(stream),
                            CHANCE_DRAWS)[found.player]
    return found, found.rows[0][mine] - played


def expected_rows(record, agent, seed):
    """What each decision's own ``analyse`` says: (player, values, best move, loss)."""
    game = record.game()
    decisions = [m for m in record.moves if "action" in m]
    out = []
    for ply, move in enumerate(decisions):
        found, loss = loss_of(game, record.position(ply, game), move["action"],
                              make_agent(agent), seed, (seed, 1))
        out.append((move["player"], found.values, found.rows[0]["move"], loss))
    return out


def test_one_row_per_decision_each_the_analysis_of_its_position(record):
    assert len(record.moves) > record.plies  # chance outcomes in the record
    result = review(record, AGENT, seed=5)
    decisions = [m for m in record.moves if "action" in m]
    rows = result.decisions
    assert result.complete and len(rows) == record.plies
    assert rows["ply"].tolist() == list(range(record.plies))
    assert rows["player"].tolist() == [m["player"] for m in decisions]
    assert rows["move"].tolist() == [m["move"] for m in decisions]
    assert rows["action"].tolist() == [m["action"] for m in decisions]
    expected = expected_rows(record, AGENT, seed=5)
    for row, (player, values, best, loss) in zip(rows, expected):
        assert row["player"] == player and [row["value_0"], row["value_1"]] == values
        assert row["best"] == best
        assert row["loss"] == loss
    assert np.max(rows["loss"]) > 0  # a move lost value somewhere


def test_the_default_agent_is_the_baseline_and_gives_what_analyse_gives(record):
    result = review(record)
    assert result.agent.startswith("az:checkpoint=baseline")
    expected = expected_rows(record, DEFAULT_AGENT, seed=0)
    assert DEFAULT_AGENT == "az:baseline,sims=128"
    assert [[r["value_0"], r["value_1"]] for r in result.decisions] == [v for _, v, _, _ in
                                                                      expected]


def test_labels_are_the_drop_of_the_movers_expected_result_past_one_two_three_thresholds(record):
    losses = np.array([loss for *_, loss in expected_rows(record, AGENT, seed=0)])
    drops = losses / 2  # two players: an expected result (the win share) is (value + 1) / 2
    positive = sorted({x for x in drops if x > 0})
    threshold = positive[len(positive) // 2] / 2  # some of each label
    result = review(record, AGENT, threshold=threshold, confirm=0)  # every drop past it marked
    assert np.allclose(result.decisions["drop"], drops, equal_nan=True)
    expected = ["blunder" if d > 3 * threshold else "mistake" if d > 2 * threshold
                else "inaccuracy" if d > threshold else "" for d in result.decisions["drop"]]
    assert result.decisions["label"].tolist() == expected
    assert {"inaccuracy", "mistake", "blunder"} & set(expected) and "" in expected
    assert result.marked["ply"].tolist() == [k for k, x in enumerate(expected) if x]
    exact = review(record, AGENT, threshold=positive[-1], confirm=0)  # a drop equal to it
    assert len(exact.marked) == 0  # is unmarked


def test_the_summary_counts_each_players_labels_and_averages_its_drops(record):
    result = review(record, AGENT, threshold=0.05)
    d = result.decisions
    assert len(result.marked)  # some marks, so that the accuracy counts some drops
    for s in result.summary():
        mine = d[d["player"] == s["player"]]
        assert s["decisions"] == len(mine) > 0
        assert [s["inaccuracies"], s["mistakes"], s["blunders"]] == \
            [sum(x == label for x in mine["label"]) for label in ("inaccuracy", "mistake",
                                                                  "blunder")]
        drops = [100 * (x if y != y else y) for x, y in zip(mine["drop"],
                                                          mine["confirmed_drop"])]
        assert s["average_drop"] == pytest.approx(sum(drops) / len(drops))  # negatives too
        marked = [100 * row["confirmed_drop"] if row["label"] else 0 for row in mine]
        per_move = [min(100, max(0, 103.1668 * math.exp(-0.04354 * x) - 3.1669))
                    for x in marked]
        assert s["accuracy"] == pytest.approx(sum(per_move) / len(per_move))
        low, high = s["accuracy_interval"]
        assert min(per_move) <= low <= s["accuracy"] <= high <= max(per_move)
        if not any(mine["label"]):
            assert s["accuracy"] == pytest.approx(100, abs=1e-3)
    assert result.to_json()["summary"] == result.summary()


def test_every_mark_shown_is_confirmed_beyond_the_noise_of_three_deeper_searches(record):
    """Rows whose first drop passes the threshold are searched again three times by the same
    agent with four times the simulations, each with its own seed; ``confirmed_drop`` is their
    mean drop, and a mark is shown, at the level of that mean, only where another such search
    would find the drop above the threshold with a chance of 90% (the one-sided prediction
    bound from the three's mean and spread passes it); ``sure`` is above one half exactly
    where the mean passes the threshold."""
    game, agent, threshold, seed = record.game(), make_agent(AGENT), 0.05, 4
    result = review(record, agent, threshold=threshold, seed=seed)
    assert DEFAULT_CONFIRM == 4 == result.confirm and DEFAULT_REPEATS == 3 == result.repeats
    deep = deeper(agent, 4)
    assert deep.sims == 4 * agent.sims and agent.sims == 24  # the reviewer itself unchanged
    d = result.decisions
    candidates = d[d["drop"] > threshold]
    assert len(candidates) and np.isnan(d["confirmed_drop"][d["drop"] <= threshold]).all()
    assert (d["label"][d["drop"] <= threshold] == "").all()
    noisy = 0
    for row in candidates:
        ply = int(row["ply"])
        move = [m for m in record.moves if "action" in m][ply]
        drops = [loss_of(game, record.position(ply, game), move["action"], deep,
                         np.random.default_rng((seed, 2, j)), (seed, 3, j))[1] / 2
                 for j in range(3)]  # two players: a drop is half the loss
        assert row["confirmed_drop"] == pytest.approx(np.mean(drops))
        assert (row["sure"] > 0.5) == (np.mean(drops) > threshold)
        bound = stats.t.ppf(0.9, 2) * np.std(drops, ddof=1) * math.sqrt(1 + 1 / 3)
        beyond = np.mean(drops) - bound > threshold  # another search finds it, 90% sure
        noisy += bool(np.mean(drops) > threshold and not beyond)
        assert bool(row["label"]) == beyond
        if beyond:
            levels = sum(row["confirmed_drop"] > k * threshold for k in (1, 2, 3))
            assert row["label"] == ("inaccuracy", "mistake", "blunder")[levels - 1]
    assert 0 < len(result.marked) < len(candidates)  # some confirmed, some not
    assert noisy  # some pass on average but not beyond their noise
    assert (result.marked["confirmed_drop"] > threshold).all()


def test_a_search_without_randomness_is_confirmed_once():
    """The network's search in Zèbres (no chance, no hidden cards) has no randomness: its
    repeats agree (no noise), so a mark needs only its confirmed drop above the threshold."""
    game = make_game("zebres")
    record = play_match(game, [make_agent("random"), make_agent("greedy")], games=1, seed=2,
                        workers=1, progress=False, record=True).records[0]
    result = review(record, "az:baseline,sims=8", game=game, threshold=0.05)
    d = result.decisions[~np.isnan(result.decisions["confirmed_drop"])]
    assert len(d)
    assert [bool(x) for x in d["label"]] == [x > 0.05 for x in d["confirmed_drop"]]


def test_a_move_the_search_never_tried_is_valued_by_a_search_after_it():
    """With 4 simulations most of Zèbres' legal moves are never tried at the root: the
    review values the move played by ``move_value``, no row is NaN, and a move that ends the
    game is worth its returns."""
    game = make_game("zebres")
    result = play_match(game, [make_agent("random"), make_agent("random")], games=1, seed=1,
                        workers=1, progress=False, record=True)
    record = result.records[0]
    r = review(record, "mcts:sims=4", seed=2, confirm=0)
    assert np.isfinite(r.decisions["loss"]).all()
    tried = 0
    for row in r.decisions[:8]:
        position = record.position(int(row["ply"]), game)
        found = analyse(game, position, make_agent("mcts:sims=4"), rng=2)
        mine = next(x for x in found.rows if x["action"] == row["action"])
        if mine["visits"]:
            tried += 1
            assert row["played_value"] == mine[f"value_{row['player']}"]
        else:
            after = move_value(game, position, int(row["action"]), make_agent("mcts:sims=4"),
                               np.random.default_rng((2, 1)), CHANCE_DRAWS)
            assert row["played_value"] == after[row["player"]]
    assert tried < 8  # some were never tried
    last = r.decisions[-1]
    final = move_value(game, record.position(int(last["ply"]), game), int(last["action"]),
                       make_agent("mcts:sims=4"))
    assert final.tolist() == record.returns  # the last move ends the game: its returns


def test_average_drop_and_accuracy_rank_random_clicks_below_a_search():
    """Zèbres at a small budget, ``az:baseline`` with 32 simulations: two games of ``random``
    and two of ``mcts:sims=400`` against the same opponent (``greedy``, each seat once):
    random's average drop interval (bootstrapped by game) lies wholly above the search's, its
    accuracy interval wholly below."""
    game = make_game("zebres")
    records = []
    for seed, player in enumerate(["random", "mcts:sims=400"]):
        records += play_match(game, [make_agent(player), make_agent("greedy")], games=2,
                              seed=11 + seed, workers=1, progress=False, record=True).records
    reviews = [review(r, "az:baseline,sims=32", game=game) for r in records]
    ranked = by_agent(reviews, "average_drop")
    clicks, search = ranked["random"], ranked["mcts:sims=400,c=1.4"]
    assert clicks["games"] == search["games"] == 2
    assert search["interval"][0] <= search["interval"][1] < clicks["interval"][0] \
        <= clicks["interval"][1]
    ranked = accuracy_by_agent(reviews)  # the accuracy too, within [0, 100]
    clicks, search = ranked["random"], ranked["mcts:sims=400,c=1.4"]
    assert 0 <= clicks["interval"][0] <= clicks["interval"][1] < search["interval"][0] \
        <= search["interval"][1] <= 100


def test_on_the_same_positions_random_clicks_drop_more_than_a_search():
    """Connect Four at a small budget: 8 positions from each of six recorded games of mixed
    strength (``mcts:sims=50`` against random clicks), every agent asked to move in each, its
    move valued by one analysis of ``mcts:sims=2000``: random's mean drop interval
    (bootstrapped by game) lies wholly above ``mcts:sims=400``'s, on the very positions where
    the search's was measured."""
    game = make_game("connect_four")
    records = play_match(game, [make_agent("mcts:sims=50"), make_agent("random")], games=6,
                         seed=5, workers=1, progress=False, record=True).records
    sampled = sample_positions(records, 8, game, seed=2)
    agents = ["random", "mcts:sims=400"]
    drops = expected_drops(game, [row for _, row in sampled], agents, "mcts:sims=2000")
    ranked = drop_by_agent(drops, [i for i, _ in sampled], agents)
    clicks, search = ranked["random"], ranked["mcts:sims=400"]
    assert clicks["positions"] == search["positions"] == len(sampled) > 40
    assert search["interval"][0] <= search["interval"][1] < clicks["interval"][0] \
        <= clicks["interval"][1]


def test_expected_drops_value_each_agents_move_by_one_analysis_of_the_position(record):
    """Each agent moves through its seat's view, and its drop is the review's loss of that
    move in the one analysis of the position, as a share of the mover's expected result."""
    game = record.game()
    sampled = sample_positions([record], 3, game, seed=1)
    assert [i for i, _ in sampled] == [0, 0, 0]
    agents = [make_agent("greedy"), make_agent("mcts:sims=8")]
    drops = expected_drops(game, [row for _, row in sampled], agents, AGENT, seed=4)
    for i, (_, row) in enumerate(sampled):
        for j, agent in enumerate(agents):
            action = int(seat_act(agent, game, row.copy(), np.random.default_rng((4, i, j)))[0])
            _, loss = loss_of(game, row, action, make_agent(AGENT),
                              np.random.default_rng((4, i)), (4, i, j, 1))
            assert drops[i, j] == pytest.approx(50 * loss)
    again = sample_positions([record], 3, game, seed=1)  # seeded: the same positions
    assert [row.tobytes() for _, row in again] == [row.tobytes() for _, row in sampled]


def test_drop_by_agent_bootstraps_by_record():
    """One record's positions are drawn together: two records whose drops are all 1 and all 3
    give intervals within [1, 3], and a record alone gives none; the gain over the agent
    before is the paired difference, as narrow as the difference is steady."""
    drops = np.array([[1.0], [1.0], [3.0], [3.0]])
    found = drop_by_agent(drops, [0, 0, 1, 1], ["a"])["a"]
    assert found["drop"] == 2.0 and found["positions"] == 4
    assert 1.0 <= found["interval"][0] < found["interval"][1] <= 3.0
    assert drop_by_agent(drops, [0, 0, 0, 0], ["a"])["a"]["interval"] is None
    paired = drop_by_agent(np.array([[2.0, 1.0], [2.0, 1.0], [6.0, 5.0], [6.0, 5.0]]),
                           [0, 0, 1, 1], ["a", "b"])  # b one below a wherever they stand
    assert paired["b"]["gain"] == paired["b"]["gain_interval"][0] \
        == paired["b"]["gain_interval"][1] == 1.0
    assert paired["b"]["interval"][0] < paired["a"]["interval"][1]  # apart only when paired
    assert "gain" not in paired["a"]


def test_banjooli_is_reviewed_by_mcts_the_others_by_the_baseline():
    assert default_agent("banjooli") == "mcts:sims=400"
    assert default_agent("zebres") == default_agent("bonobo") == DEFAULT_AGENT


def test_bootstrap_intervals_stay_within_the_values():
    """A bounded quantity gets a bounded interval: the percentile bootstrap of a mean lies
    within the values' range (a normal interval of [0, 0, 0, 1] would reach below 0)."""
    values = [0.0, 0.0, 0.0, 1.0]
    low, high = bootstrap_interval(values, rng=0)
    assert 0 <= low <= np.mean(values) <= high <= 1
    assert np.mean(values) - 1.96 * np.std(values, ddof=1) / 2 < 0
    assert bootstrap_interval([3.0, 3.0, 3.0], rng=0) == (3.0, 3.0)
    assert bootstrap_interval([5.0]) is None
    assert move_accuracy([0, 100]).tolist() == pytest.approx([100, 0], abs=1e-3)


def test_each_row_holds_the_position_before_the_move_and_the_best_line(record):
    game = record.game()
    result = review(record, AGENT, seed=1)
    for row in result.decisions[:6]:
        position = record.position(int(row["ply"]), game)
        assert row["position"] == game.to_text(position)
        found = analyse(game, position, make_agent(AGENT), rng=1)
        assert row["line"].split("; ") == found.pv and found.pv[0] == row["best"]


def test_the_csv_says_what_the_array_says(record, tmp_path):
    result = review(record, AGENT, threshold=0.1)
    path = result.to_csv(tmp_path / "review.csv")
    lines = list(csv.DictReader(io.StringIO(path.read_text())))
    assert list(lines[0]) == result.columns()
    assert len(lines) == len(result.decisions)
    for line, row in zip(lines, result.decisions.tolist()):
        for (name, cell), value in zip(line.items(), row):
            if isinstance(value, float):
                assert float(cell) == value or (math.isnan(value) and cell == "nan"), name
            else:
                assert cell == str(value), name
    with pytest.raises(ValueError, match="exists"):
        result.to_csv(path)
    assert result.to_csv(path, overwrite=True) == path


def test_progress_after_each_decision_and_a_stop_keeps_what_is_done(record):
    seen, stop = [], threading.Event()

    def progress(partial):
        seen.append(len(partial.decisions))
        if len(seen) == 3:
            stop.set()

    result = review(record, AGENT, progress=progress, stop=stop)
    assert seen == [1, 2, 3] and len(result.decisions) == 3 and not result.complete
    assert result.plies == record.plies


@pytest.mark.parametrize("kwargs, message", [
    ({"threshold": -0.1}, "threshold"), ({"threshold": math.nan}, "threshold"),
    ({"threshold": True}, "threshold"), ({"seed": -1}, "seed"),
    ({"agent": "random"}, "analysis needs a search agent"), ({"agent": "nosuch"}, "nosuch")])
def test_bad_settings_are_one_line_errors(record, kwargs, message):
    with pytest.raises(ValueError, match=message) as err:
        review(record, **{"agent": AGENT, **kwargs})
    assert "\n" not in str(err.value)
