"""Kernel vs reference: play seeded random games through both and compare at every step."""
import numpy as np

from savanna.game import CHANCE, TERMINAL
from tests.banjooli.twin import (
    advance_reference,
    assert_node_agrees,
    choose,
    reference_of,
)


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
