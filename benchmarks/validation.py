"""What validating the states that enter the API costs: ``Game.step`` with each
game's ``valid_one`` against the same game with the check stubbed out, side by side.

Both variants run the protocol checks that the action check needs anyway (one compiled pass
finds whether each action is legal); the difference is the game's ``valid_one`` alone. The two
variants alternate within each repeat, and the figure is the median of the per-repeat ratios,
so a busy neighbour slows both alike.
"""
import statistics
import time

import numpy as np

from savanna.benchmarks.throughput import GAMES
from savanna.game import CHANCE, TERMINAL
from savanna.registry import make_game


def unchecked(game):
    """The same game with ``valid_one`` stubbed out (the drivers bind an always-valid one)."""
    cls = type(game)
    kernels = cls.kernels._replace(valid_one=None)
    stripped = type(f"Unchecked{cls.__name__}", (cls,), {"kernels": kernels})
    twin = object.__new__(stripped)
    twin.__dict__.update(game.__dict__)
    return twin


def decision_states(game, n, seed=0):
    """``n`` states at decision nodes drawn uniformly from every stage of ``n`` seeded random
    games played to the end (openings, middle games and endings alike), and one legal action
    for each."""
    rng = np.random.default_rng(seed)
    s = game.init(n, rng=seed)
    seen, actions = [], []
    while True:
        players = game.current_player(s)
        if (players == TERMINAL).all():
            break
        chance = np.flatnonzero(players == CHANCE)
        if len(chance):
            sub = s[chance]
            game.apply_chance(sub, game.sample_chance(sub, rng))
            s[chance] = sub
        decide = np.flatnonzero(game.current_player(s) >= 0)
        mask = game.legal_mask(s[decide])
        chosen = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int64)
        seen.append(s[decide].copy())
        actions.append(chosen)
        sub = s[decide]
        game.step_inplace(sub, chosen)
        s[decide] = sub
    states, actions = np.concatenate(seen), np.concatenate(actions)
    pick = rng.choice(len(states), size=n, replace=len(states) < n)
    return states[pick], actions[pick]


def step_cost(game, n, calls, repeats):
    """Median over ``repeats`` of (time with the check / time without) for ``calls`` calls of
    ``game.step`` on ``n`` states."""
    bare = unchecked(game)
    states, actions = decision_states(game, n)
    ratios = []
    for _ in range(repeats + 1):  # the first round warms up
        times = []
        for g in (game, bare):
            start = time.perf_counter()
            for _ in range(calls):
                g.step(states, actions)
            times.append(time.perf_counter() - start)
        ratios.append(times[0] / times[1])
    return statistics.median(ratios[1:])


def measure(repeats=15, progress=print):
    """``[(what, extra cost in %, unit)]`` for every game, a batch of 4,096 and one state."""
    rows = []
    for name, (options, _) in GAMES.items():
        game = make_game(name, **options)
        progress(f"{name}: validation cost")
        for n, calls in ((4096, 20), (1, 5000)):
            cost = step_cost(game, n, calls, repeats)
            rows.append((f"{name}: Game.step on {n:,} state{'s' * (n > 1)}, "
                         "valid_one's extra time", 100 * (cost - 1), "%"))
    return rows
