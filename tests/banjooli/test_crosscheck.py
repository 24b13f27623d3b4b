"""Kernel vs reference: seeded random games through both, compared at every step, and
lockstep play from hand-made positions."""
import numpy as np
import pytest

from savanna.banjooli import reference as ref
from savanna.banjooli.game import BanjooliGame
from savanna.banjooli.twin import (
    advance_reference,
    assert_node_agrees,
    choose,
    play_lockstep,
    reference_of,
)
from savanna.game import CHANCE, TERMINAL
from tests.banjooli.helpers import game_of, position


def crosscheck(game, n_games, seed):
    """Play ``n_games`` seeded random games with the kernel (in lockstep, batched) and the
    reference (one by one); assert at every step equal text, player, legal actions, chance
    probabilities, rewards, scores and the observations of the player to move and of one other
    seat (rotating), and that the text of every fourth game round-trips to the same bytes.
    Returns the number of steps compared."""
    rng = np.random.default_rng(seed)
    s = game.init(n_games, rng=seed)
    refs = [reference_of(game, row) for row in s]
    P = game.num_players
    steps = 0
    while True:
        players = game.current_player(s)
        live = np.flatnonzero(players != TERMINAL)
        if not len(live):
            return steps
        masks = game.legal_mask(s)
        probs = game.chance_probs(s)
        obs = {p: game.observe(s, p) for p in range(P)}  # one batched call per seat
        scores = game.scores(s)
        actions = np.zeros(len(s), np.int64)
        for i in live:
            seats = {max(int(players[i]), 0), int((steps + i) % P)}
            assert_node_agrees(game, s[i], refs[i], players[i], masks[i], probs[i],
                               {p: obs[p][i] for p in seats}, scores[i], round_trip=i % 4 == 0)
            actions[i] = choose(rng, players[i], masks[i], probs[i])
        rewards = np.zeros((len(s), P), np.float32)
        chance = np.flatnonzero(players == CHANCE)
        if len(chance):
            sub = s[chance]
            game.apply_chance(sub, actions[chance])
            s[chance] = sub
        decide = np.flatnonzero(players >= 0)
        if len(decide):
            sub = s[decide]
            rewards[decide] = game.step_inplace(sub, actions[decide])
            s[decide] = sub
        for i in live:
            refs[i] = advance_reference(refs[i], players[i], int(actions[i]), rewards[i])
        steps += len(live)


CONFIGS = [dict(num_players=2), dict(num_players=5), dict(num_players=2, berries=True),
           dict(num_players=5, berries=True)] + [
    dict(num_players=2, special=k) for k in ("crocodiles", "canyon", "lava", "vortex")]


def config_id(options):
    """``2p``, ``5p-berries``, ``2p-lava``: readable test ids (``-k 5p-berries``)."""
    return "-".join([f"{options['num_players']}p"] + ["berries"] * options.get("berries", False)
                    + [options.get("special")] * ("special" in options))


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_kernel_matches_reference_on_random_games(options):
    assert crosscheck(BanjooliGame(**options), n_games=2, seed=7) > 100


@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_kernel_matches_reference_on_2000_random_games(options):
    assert crosscheck(BanjooliGame(**options), n_games=2000, seed=11) > 100_000


@pytest.mark.parametrize("text", [
    position("b3,b4,b1n,a2n,c2n", course="T1,LAVA,T2", players=3),
    position("a7,b4,b1n,a2n,c2n", course="T1,LAVA", phase="move:R1:b6"),
    position("b6,b4,b1n,a2n,c2n", course="T1,K1", phase="snake:R", berries="x,T@a8",
             collected="K,-"),
])
def test_play_lockstep_from_hand_made_positions(text):
    game = game_of(text)
    s = game.from_text(text)
    play_lockstep(game, s, 300, np.random.default_rng(1))
    assert game.to_text(s[0]) == text  # left unchanged


def test_play_lockstep_catches_a_disagreement(monkeypatch):
    text = position("b3,b4,b1n,a2n,c2n", course="T1,K1")
    game = game_of(text)
    wrong = ref.legal_actions
    monkeypatch.setattr(ref, "legal_actions", lambda st: wrong(st)[1:] or [0])
    with pytest.raises(AssertionError):
        play_lockstep(game, game.from_text(text), 50, np.random.default_rng(1))
