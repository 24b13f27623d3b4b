"""TD(lambda)'s learning step, compiled: one recorded self-play game in, the value network
moved toward each record's lambda-return (game-independent: it sees observations only)."""
import numpy as np
from numba import njit

from savanna.agents.models.td_value import observed_value, train_toward


@njit(cache=True)
def learn_game(net, work, obs_log, cum_log, end_log, total, records, lam, step):
    """Offline TD(lambda) on one game of ``records`` records (``_td_kernels.selfplay_game``'s
    logs): the lambda-return of record ``t`` for seat ``q`` is
    ``G[t] = r[t+1] + (1 - lam) * V[t+1] + lam * G[t+1]``, ending on the returns after the last
    record; values ``V`` are the network's before this game's updates (the forward view of
    TD(lambda) with its traces, Sutton and Barto 12.1), 0 at the end. Each record of a game
    still going moves the network one step toward its return; returns the mean squared TD
    error before the steps."""
    players = total.shape[0]
    values = np.zeros((records, players), np.float64)
    for t in range(records):
        if not end_log[t]:
            for q in range(players):
                values[t, q] = observed_value(net, obs_log[t, q], work)
    target = np.empty(players, np.float64)
    for q in range(players):
        target[q] = total[q] - cum_log[records - 1, q]
    error, count = 0.0, 0
    for t in range(records - 1, -1, -1):
        if t < records - 1:
            for q in range(players):
                target[q] = (cum_log[t + 1, q] - cum_log[t, q]
                             + (1.0 - lam) * values[t + 1, q] + lam * target[q])
        if not end_log[t]:
            for q in range(players):
                train_toward(net, obs_log[t, q], work, target[q], step)
                error += (target[q] - values[t, q]) ** 2
                count += 1
    return error / max(count, 1)
