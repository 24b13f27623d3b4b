"""The game in play: agents (random, MCTS, determinized where information is hidden) play
matches and record them; records replay every state; a search analyses a position; and a
speed smoke test (the compiled playouts run, one thread like two)."""
import time

import numpy as np

from savanna.agents.arena.matches import play_match
from savanna.agents.play.analysis import analyse
from savanna.agents.play.registry import make_agent
from savanna.codes import CHANCE
from savanna.conformance import play_random
from savanna.records import read_records, write_records


def agents(game):
    """MCTS (determinized with imperfect information) in seat 0, random play elsewhere."""
    search = "mcts:sims=16" + ("" if game.perfect_information else ",determinizations=2")
    return [make_agent(search)] + [make_agent("random")] * (game.num_players - 1)


def a_decision_node(game, seed):
    """A state of a seeded random game where a seat is to decide."""
    found = []
    play_random(game, game.init(1, rng=seed), np.random.default_rng(seed),
                on_step=lambda s: found.extend(s.copy() for p in game.current_player(s)
                                               if p >= 0))
    return found[len(found) // 2]


def test_agents_play_a_recorded_match_and_the_records_replay_it(game, tmp_path):
    result = play_match(game, agents(game), games=2, seed=0, workers=1, progress=False,
                        record=True)
    assert result.games == 2 and (result.plies >= 1).all()
    assert np.all(np.abs(result.returns) <= 1)
    path = write_records(tmp_path / "match.jsonl", result.records)
    for g, record in enumerate(read_records(path)):
        states = record.states()
        assert game.is_terminal(states[-1:])[0]
        assert record.plies == result.plies[g]
        replayed = record.game()
        assert replayed.base_state().tobytes() == game.base_state().tobytes()
        if game.has_chance:
            assert any("chance" in m for m in record.moves) or not (
                game.current_player(states) == CHANCE).any()


def test_a_search_analyses_a_decision(game):
    row = a_decision_node(game, seed=3)
    search = make_agent("mcts:sims=32" + ("" if game.perfect_information
                                          else ",determinizations=2"))
    found = analyse(game, row, search, rng=0)
    legal = {game.action_to_string(row, a) for a in game.legal_actions(row)}
    assert {r["move"] for r in found.rows} == legal and found.pv[0] == found.rows[0]["move"]


def test_speed_smoke(game, record_property):
    """Compiled random playouts run to the end of 256 games on one thread and two alike; the
    rate is recorded (a smoke test: no figure asserted; benchmarks measure)."""
    s = game.init(256, rng=0)
    start = time.perf_counter()
    returns, plies = game.random_playouts(s.copy(), rng=1)
    record_property("random playouts per second", 256 / (time.perf_counter() - start))
    assert (plies <= game.max_plies).all() and (plies >= 1).all()
    again, _ = game.random_playouts(s.copy(), rng=1, parallel=True)
    assert (again == returns).all()
