"""The scoring features against the games' slow references: what a seat's observation says
the final score counts is what the rules count."""
import numpy as np
import pytest

from savanna.banjooli import notation as banjooli_notation
from savanna.banjooli import reference as banjooli_ref
from savanna.benchmarks.td_scoring import card_scores, scoring_features
from savanna.bonobo import notation as bonobo_notation
from savanna.bonobo import reference as bonobo_ref
from savanna.bonobo import spec as bonobo_spec
from savanna.codes import CHANCE, TERMINAL
from savanna.registry import make_game


def random_states(game, games, seed):
    """Every state of ``games`` random games, the terminal ones included."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        s = game.init(1, rng)
        yield s
        while (player := game.current_player(s)[0]) != TERMINAL:
            if player == CHANCE:
                s = s.copy()
                game.apply_chance(s, game.sample_chance(s, rng))
            else:
                s, _ = game.step(s, [rng.choice(game.legal_actions(s[0]))])
            yield s


def test_bonobo_features_are_each_seats_score_and_pawns_value():
    game = make_game("bonobo", num_players=2)
    checked = 0
    for s in random_states(game, 3, seed=5):
        st = bonobo_ref.from_position(bonobo_notation.parse(game.to_text(s[0])))
        totals = []
        for seat in range(2):
            features = scoring_features("bonobo", game.observe(s, seat)) * 50
            on_beach = sum(bonobo_ref.final_pawn_score(st, spot)
                           for spot, owner in st.pawns.items() if owner == seat)
            assert features[0, 0] == pytest.approx(st.score[seat])
            assert features[0, 4] == pytest.approx(on_beach)
            totals.append(st.score[seat] + on_beach)
            checked += on_beach != 0
        assert features[0, 12] == pytest.approx(totals[1] - totals[0])  # seat 1's lead
    assert checked > 10  # pawns with a value were met


def test_banjooli_card_scores_are_the_final_scores():
    game = make_game("banjooli", num_players=2)
    ends = 0
    for s in random_states(game, 8, seed=3):
        if game.current_player(s)[0] != TERMINAL:
            continue
        st = banjooli_ref.from_position(banjooli_notation.parse(game.to_text(s[0])))
        for seat in range(2):
            scores = card_scores(game.observe(s, seat).reshape(1, -1))[0]
            assert scores[st.cards[seat]] == banjooli_ref.score_and_exact(st, seat)[0]
        ends += 1
    assert ends == 8


def test_unknown_game_is_named():
    with pytest.raises(ValueError, match="bonobo, banjooli, got 'zebres'"):
        scoring_features("zebres", np.zeros((1, 4), np.uint8))


def test_held_out_fit_finds_a_value_where_there_is_one():
    from savanna.benchmarks.td_predictability import held_out_fit

    rng = np.random.default_rng(0)
    n = 4000
    x = rng.normal(size=(n, 6))
    returns = np.sign(x[:, 0] + 0.3 * rng.normal(size=n))
    phase, index = np.tile(np.linspace(0, 0.99, 10), n // 10), np.arange(n) // 10
    found = held_out_fit(x, returns, returns, phase, index, hidden=8, epochs=3)[-1]
    blind = held_out_fit(x[:, 1:], returns, returns, phase, index, hidden=8, epochs=3)[-1]
    assert found["all"][0] > 0.5 and abs(blind["all"][0]) < 0.1
    assert found["all"][1] < blind["all"][1]


def test_search_records_are_the_movers_view_and_value():
    from savanna.benchmarks.td_predictability import search_records

    obs, returns, phase, index, teacher = search_records("bonobo", 2, sims=8, seed=2)
    assert len(obs) == len(returns) == len(phase) == len(index) == len(teacher) > 20
    assert set(index) == {0, 1} and np.all(np.diff(index) >= 0)
    assert np.all((phase >= 0) & (phase < 1)) and np.all(np.abs(teacher) <= 1)
    assert np.all(obs[:, bonobo_spec.OBS.offset("to_move")] == 1)  # the mover's own view
    for game in (0, 1):  # each game's records hold both seats' views and returns
        assert sorted(set(returns[index == game])) in ([-1.0, 1.0], [0.0])


def test_scored_value_plays_legal_moves_and_averages_chance(tmp_path):
    from savanna.benchmarks.td_predictability import search_records
    from savanna.benchmarks.td_search_targets import ScoredValue, fit

    game = make_game("bonobo", num_players=2)
    np.savez(tmp_path / "v.npz", **fit("bonobo", search_records("bonobo", 2, 8), epochs=1))
    agent, rng = ScoredValue(str(tmp_path / "v.npz"), ply=1), np.random.default_rng(0)
    states = [s for s in random_states(game, 1, seed=4) if game.current_player(s)[0] >= 0]
    batch = np.concatenate(states[:6])
    actions = agent.act(game, batch, rng)
    assert game.legal_mask(batch)[np.arange(6), actions].all()
    drawn, _ = game.step(batch[:1], [bonobo_spec.DRAW])  # a draw: one chance node, 8 values
    flat, weight, parent = agent.resolve_chance(game, np.concatenate([batch[:1], drawn]), rng)
    assert np.bincount(parent, weight) == pytest.approx([1.0, 1.0])
    assert len(flat) == 1 + np.count_nonzero(game.chance_probs(drawn)[0])
    obs = game.observe(batch[:2], game.current_player(batch[:2]))
    _, values = agent.evaluator(game)(obs, game.legal_mask(batch[:2]), np.array([0, 1]))
    assert values[:, 0] == pytest.approx(-values[:, 1])
    assert values[0, 0] == pytest.approx(agent.value(obs[:1])[0])
