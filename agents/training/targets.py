"""Learning targets from a teacher's search: visit counts pruned so that they teach a policy, and
final-score targets for an auxiliary head.

``prune_visits`` is KataGo's policy-target pruning (Wu 2019, section 3.1): from every root
child but the most visited, it removes the visits that exploration forced, as many as keep the
child's UCT score no higher than the best's (per tree, with several determinizations); a child
left with at most one visit per tree is dropped. With few simulations in a game of dice, the
raw visits would teach a nearly uniform policy.

>>> visits, q = [600, 300, 100], [0.4, 0.3, -0.5]  # one root, three children
>>> prune_visits(visits, q, owner=[0, 0, 0], c=1.4).tolist()
[600.0, 217.0, 13.0]
"""
import numpy as np

__all__ = ["margins", "prune_visits"]


def prune_visits(visits, q, owner, c, trees=1):
    """float64[k]: the visits of ``k`` root children (``owner[j]`` the root child ``j`` belongs
    to, sorted or not), pruned as the module docstring says. ``q``: the mover's mean return
    after each child; ``c``: the teacher's UCT exploration constant; ``trees``: the
    determinizations its simulations were split over."""
    visits = np.asarray(visits, np.float64)
    q = np.asarray(q, np.float64)
    owner = np.asarray(owner, np.int64)
    if not len(visits):
        return visits.copy()
    order = np.lexsort((q, visits, owner))  # each root's best child is the last of its group
    last = np.r_[owner[order][1:] != owner[order][:-1], True]
    best = np.full(owner.max() + 1, -1, np.int64)
    best[owner[order][last]] = order[last]
    total = np.bincount(owner, visits)
    log_n = np.log(np.maximum(total / trees, 1.0))  # ln N per tree
    b = best[owner]
    per_tree_best = np.maximum(visits[b] / trees, 1.0)
    bound = q[b] + c * np.sqrt(log_n[owner] / per_tree_best)  # the best child's UCT score
    gap = bound - q
    with np.errstate(divide="ignore"):
        needed = np.where(gap > 0, trees * c * c * log_n[owner] / np.maximum(gap, 1e-300) ** 2,
                          np.inf)  # the fewest visits that keep a's score no higher than b's
    kept = np.minimum(visits, np.ceil(needed))
    kept[kept <= trees] = 0.0
    is_best = np.arange(len(visits)) == b
    return np.where(is_best, visits, kept)


def margins(scores):
    """float32[n, P]: each seat's final score minus the mean of the seats' scores, divided by
    the spread of those margins over all rows (1 if they are all equal): the auxiliary
    score head's target, on a scale that does not depend on the game's points."""
    scores = np.asarray(scores, np.float64)
    margin = scores - scores.mean(axis=1, keepdims=True)
    spread = margin.std()
    return (margin / (spread if spread > 0 else 1.0)).astype(np.float32)
