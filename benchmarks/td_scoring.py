"""What the final score counts, read from a seat's observation: inputs for a value network
beside the observation itself.

A one-hidden-layer network over Bonobo Beach's or Banjooli's 0/1 observation barely predicts
who wins (the TD guide, "Why nothing was learned"): the score is in binary bits, and what the
pawns or the card will score at the end is a product of many inputs. These features compute it
as the rules do, from the observation alone (so from what the seat may see), scaled to about
[-1, 1]:

- Bonobo Beach: for each relative seat, its score, what its pawns on the beach would score if
  the game ended now (activated parasols and dunes beside them counted), and the sum; then
  the observer's sum minus the best other seat's.
- Banjooli: the race order as it stands (arrived ostriches by place, then the others by row),
  what the observer's card would score on it, the mean of what the cards the observer does not
  hold would score (the others' cards are hidden), the difference; then each ostrich's
  progress and the progress of the observer's first, second, third and last.

``scoring_features(name, obs)`` takes a batch of observations ``uint8[n, F]`` and returns
``float32[n, K]``.
"""
import numpy as np

from savanna.banjooli import spec as banjooli
from savanna.bonobo import spec as bonobo

_SCALE = 50.0  # points: most Bonobo Beach scores and Banjooli card scores lie well inside

# ----- Bonobo Beach --------------------------------------------------------------------------
_B = bonobo.OBS
_SPOT_TRIS = np.array(bonobo.SPOT_TRIANGLES)                          # [19, 6]
_PARASOL = np.array([s == "P" for s in bonobo.SYMBOLS])
_DUNE = np.array([s == "D" for s in bonobo.SYMBOLS])


def bonobo_features(obs: np.ndarray) -> np.ndarray:
    """``float32[n, 3 * 4 + 1]``: per relative seat score, pawns' value, sum; the lead."""
    n, seats = len(obs), bonobo.MAX_SEATS
    planes = obs[:, _B.offset("tiles"):][:, :8 * 54].reshape(n, 8, 54).astype(np.int64)
    shown = np.einsum("nvt,v->nt", planes, np.array(bonobo.VALUES))  # each triangle's number
    active = obs[:, _B.offset("activated"):][:, :54].astype(bool)
    numbers = shown[:, _SPOT_TRIS]                                    # [n, 19, 6]
    parasol = (active & _PARASOL)[:, _SPOT_TRIS].any(axis=2)
    dunes = (active & _DUNE)[:, _SPOT_TRIS].sum(axis=2)
    numbers = np.where(parasol[:, :, None], np.abs(numbers), numbers)
    spot_value = numbers.sum(axis=2) * 2 ** dunes                     # [n, 19]
    pawns = obs[:, _B.offset("pawns"):][:, :seats * 19].reshape(n, seats, 19)
    on_beach = np.einsum("nks,ns->nk", pawns.astype(np.int64), spot_value)
    bits = obs[:, _B.offset("score"):][:, :seats * 8].reshape(n, seats, 8).astype(np.int64)
    score = bits @ (1 << np.arange(8)) - 128
    present = obs[:, _B.offset("seats"):][:, :seats].astype(bool)
    total = np.where(present, score + on_beach, np.iinfo(np.int64).min // 2)
    lead = total[:, 0] - total[:, 1:].max(axis=1)
    parts = np.concatenate([score, on_beach, np.where(present, total, 0), lead[:, None]], 1)
    return (parts / _SCALE).astype(np.float32)


# ----- Banjooli --------------------------------------------------------------------------------
_J = banjooli.OBS
_CARDS = np.array(banjooli.CARDS)                                       # [10, 4]


def race_order(obs: np.ndarray) -> np.ndarray:
    """``int[n, 5]``: each colour's place in the race as it stands (0 first): arrived
    ostriches by arrival, then the others by row, the further first (ties by colour)."""
    n, cells = len(obs), banjooli.NUM_CELLS
    planes = obs[:, _J.offset("ostriches"):][:, :5 * cells].reshape(n, 5, cells)
    row = planes.argmax(axis=2) // 3
    arrival = obs[:, _J.offset("arrival"):][:, :15].reshape(n, 5, 3)
    place = np.where(arrival.any(axis=2), arrival.argmax(axis=2) + 1, 0)
    key = np.where(place > 0, 1000 - place, row)                      # larger: further ahead
    ranked = np.argsort(-key * 8 + np.arange(5), axis=1, kind="stable")
    order = np.empty_like(ranked)
    np.put_along_axis(order, ranked, np.arange(5)[None, :], axis=1)
    return order


def card_scores(obs: np.ndarray) -> np.ndarray:
    """``int[n, 10]``: what each card would score if the race ended as it stands; at the end
    of a game, what it scores (the berry variant's bonus aside)."""
    n, cells = len(obs), banjooli.NUM_CELLS
    order = race_order(obs)
    planes = obs[:, _J.offset("ostriches"):][:, :5 * cells].reshape(n, 5, cells)
    on_track = planes.any(axis=2)
    row = np.where(on_track, planes.argmax(axis=2) // 3, 10**6)
    low = row.min(axis=1, keepdims=True)
    alone_last = ((row == low) & ((row == low).sum(axis=1, keepdims=True) == 1))  # [n, 5]
    placed = order[:, _CARDS[:, :3]]                                  # [n, 10, 3] places
    exact = placed == np.arange(3)
    score = (exact * np.array([5, 4, 3])).sum(axis=2) + 2 * ((placed < 3) & ~exact).sum(axis=2)
    doubled = alone_last[:, _CARDS[:, 3]]
    return score * np.where(doubled, 2, 1)


def banjooli_features(obs: np.ndarray) -> np.ndarray:
    """``float32[n, 3 + 5 + 4]``: own card's score, the others' mean, the difference; each
    colour's progress; the progress of the own card's first, second, third and last."""
    n, cells = len(obs), banjooli.NUM_CELLS
    scores = card_scores(obs)
    held = obs[:, _J.offset("card"):][:, :10].astype(bool)
    own = scores[held]
    others = (scores.sum(axis=1) - own) / 9.0
    planes = obs[:, _J.offset("ostriches"):][:, :5 * cells].reshape(n, 5, cells)
    track = obs[:, _J.offset("track"):][:, :cells]
    last = (cells - 1 - track[:, ::-1].argmax(axis=1)) // 3           # the finish row
    row = planes.argmax(axis=2) // 3
    arrived = obs[:, _J.offset("arrival"):][:, :15].reshape(n, 5, 3).any(axis=2)
    progress = np.where(arrived, 1.0, row / np.maximum(last, 1)[:, None])
    mine = np.take_along_axis(progress, _CARDS[held.argmax(axis=1)], axis=1)
    points = np.stack([own, others, own - others], 1) / 20.0
    return np.concatenate([points, progress, mine], 1).astype(np.float32)


_FEATURES = {"bonobo": bonobo_features, "banjooli": banjooli_features}


def scoring_features(name: str, obs: np.ndarray) -> np.ndarray:
    """The scoring features of game ``name`` for a batch of its observations."""
    if name not in _FEATURES:
        raise ValueError(f"scoring features exist for {', '.join(_FEATURES)}, got {name!r}")
    return _FEATURES[name](np.atleast_2d(obs))
