"""The rating ladder: a new agent plays only its own games, the same seeds give the same file,
the anchor stays at 0, P-player games, and files that are not ladders are one-line errors."""
import json

import numpy as np
import pytest

import savanna.agents.arena.ladder
from savanna.agents.arena.ladder import Ladder
from savanna.agents.arena.stats import fit_elo

FAST = {"workers": 1, "progress": False}


def build(seed=0):
    ladder = Ladder.new("zebres")
    ladder.add("greedy", games=4, seed=seed, **FAST)
    ladder.add("mcts:sims=8", games=4, seed=seed, **FAST)
    return ladder


def test_adding_an_agent_plays_only_that_agents_games(monkeypatch):
    ladder = build()
    before = json.loads(json.dumps(ladder.matches))
    played = []

    def counting(game, agents, games, *args, **kwargs):
        played.append(([a.settings() for a in agents], games))
        return agents_play_match(game, agents, games, *args, **kwargs)

    agents_play_match = savanna.agents.arena.ladder.play_match
    monkeypatch.setattr(savanna.agents.arena.ladder, "play_match", counting)
    ladder.add("mcts:sims=16", games=6, **FAST)
    assert len(played) == 3  # one match against each agent already on the ladder
    assert all(settings[0] == {"sims": 16, "c": 1.4} for settings, _ in played)
    assert sum(games for _, games in played) == 18
    assert ladder.matches[:len(before)] == before  # the others' results are kept, not replayed
    assert [m["agents"][0] for m in ladder.matches[len(before):]] == ["mcts:sims=16,c=1.4"] * 3


def test_ratings_are_reproducible_with_a_seed(tmp_path):
    first, second = build(seed=5), build(seed=5)
    assert first.ratings() == second.ratings()
    first.save(tmp_path / "a.json")
    second.save(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    loaded = Ladder.load(tmp_path / "a.json")
    assert loaded.ratings() == first.ratings() and loaded.table() == first.table()


def test_the_anchor_is_zero_and_the_others_keep_their_differences():
    score = np.array([[0, 3, 1], [5, 0, 2], [7, 6, 0]], float)
    games = np.array([[0, 8, 8], [8, 0, 8], [8, 8, 0]], float)
    free, free_errors = fit_elo(score, games)
    anchored, errors = fit_elo(score, games, anchor=0)
    assert anchored[0] == 0 and errors[0] == 0
    assert np.allclose(anchored - anchored[1], free - free[1])
    assert (errors[1:] > free_errors[1:]).all()  # a difference is less certain than a deviation
    ladder = build()
    rows = {r["agent"]: r for r in ladder.ratings()}
    assert rows["random"]["elo"] == 0 and rows["random"]["low"] == rows["random"]["high"] == 0
    assert [r["rank"] for r in ladder.ratings()] == [1, 2, 3]


def test_a_three_player_ladder_plays_groups_with_the_ladders_agents():
    ladder = Ladder.new("bonobo", {"num_players": 3})
    ladder.add("greedy", games=3, **FAST)   # with random, random
    ladder.add("mcts:sims=4", games=3, **FAST)  # with (random, random), (random, greedy), ...
    assert [m["agents"][1:] for m in ladder.matches] == [
        ["random", "random"], ["random", "random"], ["random", "greedy:chance_depth=1"],
        ["greedy:chance_depth=1", "greedy:chance_depth=1"]]
    score, games = ladder._tables()
    assert np.allclose(score + score.T, games)  # every comparison is won, drawn or lost
    assert np.diag(games).sum() == 0
    assert len(ladder.ratings()) == 3


def test_an_agent_on_the_ladder_cannot_be_added_twice():
    ladder = Ladder.new("zebres")
    with pytest.raises(ValueError, match="'random' is on the ladder already"):
        ladder.add("random", games=2, **FAST)
    with pytest.raises(ValueError, match="games must be an int in 1..10000000"):
        ladder.add("greedy", games=0, **FAST)


@pytest.mark.parametrize("content, message", [
    ("{", "is not JSON"),
    ("[" * 100_000, "JSON nested more than 64 deep"),
    ('{"format": "savanna-ladder", "x": ' + "[" * 70 + "]" * 70 + "}",
     "JSON nested more than 64 deep"),
    ('{"format": "savanna-match"}', 'is not a ladder file'),
    ('{"format": "savanna-ladder", "version": 9}', "has version 9"),
    ('{"format": "savanna-ladder", "version": 1, "game": "zebres", "options": {}, '
     '"anchor": "random", "agents": ["random"], "matches": [{"agents": ["x", "random"], '
     '"games": 2, "pair_score": [[0, 1], [1, 0]]}]}', "is damaged (KeyError: \"'x'\")"),
    ('{"format": "savanna-ladder", "version": 1, "game": "zebres", "options": {}, '
     '"anchor": "random", "agents": ["random"], "matches": [{"agents": ["random"], '
     '"games": 2, "pair_score": [[0, 1], [1, 0]]}]}', "is damaged (IndexError"),
])
def test_a_file_that_is_not_a_ladder_is_a_one_line_error(tmp_path, content, message):
    path = tmp_path / "ladder.json"
    path.write_text(content)
    with pytest.raises(ValueError) as err:
        Ladder.load(path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_an_agent_object_must_be_rebuildable_from_its_spec():
    class Mine:
        name = "mine"

        def settings(self):
            return {}

        def act(self, game, states, rng):
            raise AssertionError("never played")

    with pytest.raises(ValueError, match="unknown agent 'mine'"):
        Ladder.new("zebres").add(Mine(), games=2, **FAST)
