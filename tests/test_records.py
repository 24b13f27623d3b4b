"""Game records (``savanna.records``): every state replays exactly on every game configuration,
chance and hidden information included; the arena records its games without changing them;
bad files are one-line errors naming the line."""
import json

import numpy as np
import pytest

from savanna.agents.arena.matches import play_match, tournament
from savanna.agents.play.registry import make_agent
from savanna.game import CHANCE, TERMINAL
from savanna.metadata import game_options
from savanna.records import FORMAT, make_record, read_records, write_records
from savanna.registry import make_game


def play_one(game, seed):
    """One game with random decisions: its start, events and every state after each."""
    rng = np.random.default_rng(seed)
    row = game.init(1, rng)
    start, states, events = row.copy(), [row.copy()], []
    while (player := int(game.current_player(row)[0])) != TERMINAL:
        if player == CHANCE:
            outcome = int(game.sample_chance(row, rng)[0])
            game.apply_chance(row, [outcome])
            events.append((CHANCE, outcome))
        else:
            action = int(rng.choice(game.legal_actions(row)))
            game.step_inplace(row, [action])
            events.append((player, action))
        states.append(row.copy())
    return start, events, np.concatenate(states)


def test_a_record_reproduces_every_state_exactly(game, tmp_path):
    """On every configuration of tests/conftest.py: the states replayed from the file are
    byte for byte those of the game (Banjooli's secret cards and berries too)."""
    start, events, states = play_one(game, seed=7)
    record = make_record(game, start, events, ["random"] * game.num_players, seed=7)
    path = write_records(tmp_path / "one.jsonl", [record])
    (loaded,) = read_records(path)
    assert loaded.game_name == game.name and loaded.options == game_options(game)
    again = loaded.game()
    assert again.base_state().tobytes() == game.base_state().tobytes()
    replayed = loaded.states()
    assert replayed.tobytes() == states.tobytes()
    assert loaded.plies == sum(who != CHANCE for who, _ in events)
    assert loaded.position(loaded.plies).tobytes() == states[-1:].tobytes()
    if game.has_chance:
        assert any("chance" in m for m in loaded.moves)


def test_position_is_the_state_where_a_decision_is_taken():
    game = make_game("banjooli", num_players=2)
    start, events, states = play_one(game, seed=3)
    record = make_record(game, start, events, ["random", "random"])
    players = game.current_player(record.states())
    for ply in (0, 1, record.plies // 2):
        k = record.ply_index(ply)
        assert players[k] >= 0 and sum(who >= 0 for who, _ in events[:k]) == ply
        assert record.position(ply).tobytes() == states[k: k + 1].tobytes()
    with pytest.raises(ValueError, match=rf"ply must be in 0\.\.{record.plies} .*got -1"):
        record.position(-1)


def test_the_arena_records_its_games_without_changing_them(tmp_path):
    game = make_game("bonobo", num_players=3)
    agents = [make_agent("random"), make_agent("greedy"), make_agent("random")]
    plain = play_match(game, agents, games=6, seed=2, workers=1, progress=False)
    kept = play_match(game, agents, games=6, seed=2, workers=2, progress=False, record=True,
                      start_method="fork")
    assert (plain.returns == kept.returns).all() and (plain.plies == kept.plies).all()
    assert plain.records is None and len(kept.records) == 6
    for g, record in enumerate(kept.records):
        seats = kept.seats[g]
        assert record.info["match_game"] == g and record.seed == 2
        assert [record.agents[seats[j]] for j in range(3)] == kept.agents
        assert np.allclose([record.returns[seats[j]] for j in range(3)], kept.returns[g])
        assert record.plies == kept.plies[g]
    folder = kept.save(tmp_path / "match")
    loaded = read_records(folder / "records.jsonl")
    assert [r.to_json() for r in loaded] == [r.to_json() for r in kept.records]
    loaded[5].states()  # replays, returns checked
    meta = json.loads((folder / "match.json").read_text())["metadata"]
    assert meta["options"] == {"num_players": 3} and meta["rules_version"].startswith("v0 ")


def test_a_tournament_saves_every_game_of_every_match(tmp_path):
    game = make_game("zebres")
    agents = [make_agent("random"), make_agent("greedy"), make_agent("random")]
    result = tournament(game, agents, games_per_pair=2, workers=1, progress=False, record=True)
    folder = result.save(tmp_path / "t")
    loaded = read_records(folder / "records.jsonl")
    assert [r.info["match"] for r in loaded] == [0, 0, 1, 1, 2, 2]
    assert json.loads((folder / "tournament.json").read_text())["metadata"]["game"] == "zebres"


def test_an_existing_file_is_kept_unless_overwriting(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("mine\n")
    with pytest.raises(ValueError, match="exists; give a new file, or allow overwriting"):
        write_records(path, [])
    assert path.read_text() == "mine\n"


@pytest.fixture(scope="module")
def good_line():
    game = make_game("zebres")
    start, events, _ = play_one(game, seed=1)
    return make_record(game, start, events, ["random", "random"], seed=1).to_json()


def changed(line, **fields):
    return json.dumps({**line, **fields})


def first_action(line, **fields):
    return {**line, "moves": [{**line["moves"][0], **fields}, *line["moves"][1:]]}


@pytest.mark.parametrize("make_text, message", [
    (lambda r: "{oops", "line 2 is not JSON (Expecting property name enclosed in double quotes "
                        "at column 2)"),
    (lambda r: "[1, 2]", "line 2: expected a JSON object, got [1, 2]"),
    (lambda r: changed(r, format="pgn"),
     f"line 2: not a {FORMAT} record (its format field differs)"),
    (lambda r: json.dumps({k: v for k, v in r.items() if k != "start"}), "line 2: missing start"),
    (lambda r: changed(r, moves="e4 e5"), "line 2: moves must be a list, got 'e4 e5'"),
    (lambda r: changed(r, moves=[{"player": 0}]), "line 2: move 0 must be"),
    (lambda r: changed(r, moves=[{"chance": True}]), "line 2: move 0 must be"),
    (lambda r: changed(r, returns=[1, "x"]), "line 2: returns must be a list of numbers"),
    (lambda r: changed(r, seed="one"), "line 2: seed must be an int or null, got 'one'"),
    (lambda r: "[" * 100_000 + "]" * 100_000, "line 2: JSON nested more than 64 deep"),
    (lambda r: "[" * 65 + "]" * 65, "line 2: JSON nested more than 64 deep"),
])
def test_a_malformed_line_is_a_one_line_error_naming_it(make_text, message, good_line,
                                                        tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(good_line) + "\n" + make_text(good_line) + "\n")
    with pytest.raises(ValueError) as err:
        read_records(path)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("edit, message", [
    (lambda r: {**r, "game": "chess"}, "line 1: game 'chess' with options"),
    (lambda r: {**r, "options": {"board": "huge"}}, "line 1: game 'zebres' with options"),
    (lambda r: {**r, "start": "nonsense"}, "line 1: start position: "),
    (lambda r: first_action(r, action=999), "line 1: move 0 ("),
    (lambda r: first_action(r, player=1), "is seat 1's decision but the state is at seat 0"),
    (lambda r: first_action(r, move="start 99"), "is named 'start"),
    (lambda r: {**r, "moves": [{"chance": 0}] + r["moves"]}, "the state is not a chance node"),
    (lambda r: {**r, "moves": r["moves"][:-1]}, "the game has returns but its"),
    (lambda r: {**r, "returns": [5, 5]}, "returns [5, 5] differ from those the moves give"),
    (lambda r: {**r, "returns": r["returns"][:1]}, "returns has 1 entries, one per seat expected: "
                                                  "2 for zebres"),
    (lambda r: {**r, "returns": r["returns"] * 2}, "returns has 4 entries"),
    (lambda r: {**r, "returns": []}, "returns has 0 entries"),
    (lambda r: {**r, "agents": ["random"]}, "agents has 1 entries"),
])
def test_a_record_that_does_not_replay_is_a_one_line_error_naming_it(edit, message, good_line,
                                                                     tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(edit(good_line)) + "\n")
    (record,) = read_records(path)
    with pytest.raises(ValueError) as err:
        record.states()
    assert message in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith(f"{path} line 1: ")


def test_a_line_separator_inside_a_string_does_not_split_the_record(good_line, tmp_path):
    """JSON Lines ends a line at \\n only: a literal U+2028 or U+2029 (legal inside a JSON
    string, split by ``str.splitlines``) stays in the record's text."""
    line = json.dumps({**good_line, "agents": ["ran\u2028dom", "rand\u2029om\x85"]},
                      ensure_ascii=False)
    assert "\u2028" in line
    path = tmp_path / "sep.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    (record,) = read_records(path)
    assert record.agents == ["ran\u2028dom", "rand\u2029om\x85"]
    assert len(record.states()) == len(good_line["moves"]) + 1


def test_a_records_file_past_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr("savanna.records.MAX_RECORDS_BYTES", 100)
    monkeypatch.chdir(tmp_path)  # a short path: a long one is clipped in the message
    (tmp_path / "big.jsonl").write_text("x" * 101)
    with pytest.raises(ValueError, match=r"records file .*big.jsonl' is larger than 100 bytes"):
        read_records("big.jsonl")


def test_an_unreadable_or_empty_file_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short path: a long one is clipped in the message
    with pytest.raises(ValueError, match="cannot read records file .*missing.jsonl"):
        read_records("missing.jsonl")
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="not UTF-8 text"):
        read_records(tmp_path / "bin.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(ValueError, match="holds no records"):
        read_records(tmp_path / "empty.jsonl")


def test_a_log_with_a_decision_for_the_wrong_seat_is_refused():
    game = make_game("zebres")
    start = game.init(1)
    with pytest.raises(ValueError, match="a decision is logged for a seat that is not to move"):
        make_record(game, start, [(1, game.legal_actions(start)[0])], ["random", "random"])
