"""Kernel vs reference: play seeded random games through both and compare at every step."""
import numpy as np

from banjooli import notation as nt
from banjooli import reference as ref
from savanna.game import CHANCE, TERMINAL


def crosscheck(game, n_games, seed):
    """Play ``n_games`` seeded random games with the kernel (in lockstep, batched) and the
    reference (one by one); assert at every step equal text, player, legal actions, chance
    probabilities, rewards, scores and the observations of the player to move and of one other
    seat (rotating), and that the text of every fourth game round-trips to the same bytes.
    Returns the number of steps compared."""
    rng = np.random.default_rng(seed)
    s = game.init(n_games, rng=seed)
    refs = [ref.from_position(nt.parse(game.to_text(row))) for row in s]
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
            st = refs[i]
            text = game.to_text(s[i])
            if i % 4 == 0:
                assert game.from_text(text)[0].tobytes() == s[i].tobytes(), text
            assert nt.format(ref.to_position(st)) == text
            assert ref.current_player(st) == players[i], text
            assert ref.legal_actions(st) == np.flatnonzero(masks[i]).tolist(), text
            assert ref.chance_probs(st) == probs[i].tolist(), text
            for p in {max(int(players[i]), 0), int((steps + i) % P)}:
                assert ref.observe(st, p) == obs[p][i].tolist(), (text, p)
            assert ref.scores(st) == scores[i].tolist(), text
            if players[i] == CHANCE:
                actions[i] = rng.choice(6, p=probs[i])
            elif players[i] >= 0:
                actions[i] = rng.choice(np.flatnonzero(masks[i]))
        chance = np.flatnonzero(players == CHANCE)
        if len(chance):
            sub = s[chance]
            game.apply_chance(sub, actions[chance])
            s[chance] = sub
            for i in chance:
                refs[i] = ref.apply_chance(refs[i], int(actions[i]))
        decide = np.flatnonzero(players >= 0)
        if len(decide):
            sub = s[decide]
            rewards = game.step_inplace(sub, actions[decide])
            s[decide] = sub
            for k, i in enumerate(decide):
                refs[i], r = ref.step(refs[i], int(actions[i]))
                assert np.abs(np.array(r) - rewards[k]).max() < 1e-6, game.to_text(s[i])
        steps += len(live)
