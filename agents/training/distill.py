"""Distillation datasets: a UCT teacher's self-play, every position with what its search knew.

``distill(config, folder)`` plays ``config.games`` games of the teacher against itself, in parts
of ``part_games`` games searched together in one compiled call per move
(``savanna.agents.training._distill_kernels``, on every numba thread), and writes each part as
``part-00000.npz`` beside ``dataset.json`` (the settings, the game and its options, the
versions, and the SHA-256 of every part written). A part depends only on the seed and its
number, so a run that was stopped resumes with the next missing part (the parts it keeps are
checked first), and the dataset is the same whatever the thread count. One process at a time
writes a dataset folder (``savanna.files.claimed``); the folder's format, and reading it back,
are ``savanna.agents.training.distill_dataset``'s.

Every decision is a row: the state itself (observations and legal masks are computed from it
when needed, so a row costs about a hundred bytes), the player to move, its decision number in
the game, the move played, the root's mean return vector (absolute seats), the returns
collected before it, and the searched children (action, visits, the mover's mean return after
it), stored end to end. Every game has its returns and final scores. ``load_dataset`` reads
them back as one ``Dataset``, with value targets in the mover's relative seats, every part
checked first (``savanna.agents.training.dataset_parts``: declared columns, ranges, checksums);
``load_datasets`` merges several, refusing datasets that share games.

The teacher (``Teacher``) searches the true state unless its spec names ``determinizations``:
in a game with hidden information (Banjooli's prediction cards) the true-deal teacher's values
are those of the deal, and a network that sees only observations learns their expectation over
what it cannot see; with ``mcts:sims=N,determinizations=D`` it searches ``D`` draws of what the
mover cannot see, so that its targets depend only on what the mover knows.

With a ``student`` (an agent spec, ``az:model.pt`` say) its moves are played after the first
``sample_decisions`` and the teacher only labels the positions (DAgger, Ross et al. 2011: the
data then holds the positions the student reaches, not only the teacher's); with an
``opponent`` too, the student plays one seat of each game and the opponent the others, so that
the data holds the student's games against the agent it must beat.

The command line (``savanna distill``, ``savanna fit``) and the AlphaZero guide show the whole
workflow; ``tests/agents/test_distill.py`` runs it on Nim.
"""
import io
from pathlib import Path

import numpy as np

from savanna.agents.play.search import NODE_DTYPE, UCT, compiled_search
from savanna.agents.training import _distill_kernels
from savanna.agents.training.dataset_parts import digest
from savanna.agents.training.distill_config import DistillConfig, movers, teacher_settings
from savanna.agents.training.distill_dataset import (
    FORMAT,
    META_FILE,
    VERSION,
    Dataset,
    check_game,
    kept_parts,
    load_dataset,
    load_datasets,
    merge,
    num_parts,
    part_file,
    part_games,
    read_meta,
    write_meta,
)
from savanna.errors import clip, clip_path
from savanna.files import CLAIM_FILE, atomic_write_bytes, claimed
from savanna.game import CHANCE, TERMINAL
from savanna.metadata import game_options, package_version
from savanna.registry import resolve_game
from savanna.rng import make_streams
from savanna.seats import seat_act

__all__ = ["Dataset", "DistillConfig", "Teacher", "compiled_distill", "distill", "load_dataset",
           "load_datasets", "merge"]

MAX_TREE_BYTES = 4 << 30  # the teacher's trees of one part, allocated at once


def tree_shape(game, spec, games):
    """``(trees searched at once, nodes per tree, states per tree)`` of the teacher ``spec``
    on ``games`` games (``Teacher`` allocates them)."""
    sims, _, _, determinizations = teacher_settings(spec)
    d = determinizations or 1
    most = -(-sims // d)
    width = max(game.num_actions, game.max_chance_outcomes)
    return min(games * d, 64), 1 + (most + 1) * width, most + 2


def check_teacher_fits(config, game):
    """A one-line ValueError if the teacher's trees would not fit in ``MAX_TREE_BYTES``."""
    chunks, nodes, states = tree_shape(game, config.teacher, config.part_games)
    need = chunks * (nodes * (NODE_DTYPE.itemsize + 12 * game.num_players)
                     + states * game.state_dtype.itemsize)
    if need > MAX_TREE_BYTES:
        raise ValueError(f"the teacher {clip(config.teacher)} needs trees of "
                         f"{need / 2**30:,.1f} GiB on {game.name}, more than "
                         f"{MAX_TREE_BYTES >> 30} GiB: lower sims")


def compiled_distill(game):
    """``savanna.agents.training._distill_kernels`` bound to ``game`` and to its UCT search."""
    uct = compiled_search(game, UCT)
    return game.compiled(_distill_kernels, **{name: getattr(uct, name) for name in (
        "set_roots", "simulate", "root_children")})


class Teacher:
    """The teacher's searches of a batch of ``n`` games, one compiled call per move.

    Without ``determinizations`` in its spec the teacher searches each game's true state (in
    Banjooli, the true deal: its values are those of the deal, its moves may use cards the
    mover cannot see). With ``determinizations=D`` it splits its simulations over ``D`` trees
    per game, each from ``game.resample_hidden(state, mover, rng)``, a draw of what the mover
    cannot see, and teaches their summed visits, visit-weighted values and mean root value:
    targets that depend only on what the mover knows, so that the student, who sees only
    that, can follow them. In a game of perfect information the ``D`` trees search the same
    state on their own streams (root parallelisation)."""

    def __init__(self, game, spec, n, streams, rng):
        self.game, self.n = game, n
        self.sims, self.c, self.rollouts, determinizations = teacher_settings(spec)
        self.trees_per_game = d = determinizations or 1
        self.resample = determinizations is not None and not game.perfect_information
        self.kernels = compiled_distill(game)
        self.streams = streams  # a game's picks (and its only tree's search when d == 1)
        self.tree_streams = streams if d == 1 else make_streams(rng, n * d)
        self.tree_sims = np.tile([self.sims // d + (k < self.sims % d) for k in range(d)],
                                 n).astype(np.int64)
        p, a = game.num_players, game.num_actions
        chunks, node_cap, state_cap = tree_shape(game, spec, n)
        self.trees = (np.empty(chunks * node_cap, NODE_DTYPE),
                      np.empty((chunks * node_cap, p)),
                      np.empty((chunks * node_cap, p), np.float32),
                      np.empty(chunks * state_cap, game.state_dtype),
                      np.zeros((chunks, 2), np.int64))
        self.visits = np.zeros((n * d, a), np.int32)
        self.returns = np.zeros((n * d, a), np.float64)
        self.root_values = np.zeros((n * d, p), np.float64)

    def roots(self, states, players, active, rng):
        """The states the trees search from: each game's own, or ``D`` draws of what its mover
        cannot see (drawn from ``rng``, the active games in order, mover by mover)."""
        d = self.trees_per_game
        roots = np.repeat(states, d)
        if self.resample:
            rows = np.repeat(active, d)
            movers = np.repeat(players, d)
            for player in np.unique(movers[rows]):
                sel = np.flatnonzero(rows & (movers == player))
                roots[sel] = self.game.unchecked.resample_hidden(roots[sel], int(player), rng)
        return roots

    def search(self, states, players, decisions, sample_decisions, rng):
        """Searches every game at a decision node (``players >= 0``) and picks its move:
        ``(visits int32[n, A], q float64[n, A], root values float64[n, P], chosen int64[n])``,
        ``q[i, a]`` the mover's mean return after ``a`` (0 where unvisited), root values in
        absolute seats; rows of other games are undefined."""
        n, d, a = self.n, self.trees_per_game, self.game.num_actions
        active = players >= 0
        self.kernels.search_roots(self.roots(states, players, active, rng),
                                  np.repeat(active, d), self.tree_streams, self.tree_sims,
                                  self.c, self.rollouts, *self.trees, self.visits,
                                  self.returns, self.root_values)
        visits = self.visits.reshape(n, d, a).sum(axis=1)
        returns = self.returns.reshape(n, d, a).sum(axis=1)
        q = np.divide(returns, visits, out=np.zeros((n, a)), where=visits > 0)
        weights = self.tree_sims.reshape(n, d, 1) / self.sims
        root = (self.root_values.reshape(n, d, -1) * weights).sum(axis=1)
        chosen = np.zeros(n, np.int64)
        self.kernels.pick_moves(active, visits, decisions, sample_decisions, self.streams,
                                chosen)
        return visits, q, root, chosen


# ----- playing a part ---------------------------------------------------------------------------
def play_part(game, config, part):
    """The teacher's self-play of part ``part`` (``config.part_games`` games, fewer in the last
    part): a dict of arrays, as saved (see the module docstring)."""
    n = part_games(config, part)
    rng = np.random.default_rng([config.seed, part])
    api = game.unchecked  # the teacher's own states: never checked
    states = api.init(n, rng)
    teacher = Teacher(game, config.teacher, n, make_streams(rng, n), rng)
    agents = movers(config)
    episodes = part * config.part_games + np.arange(n)
    p = game.num_players
    decisions = np.zeros(n, np.int64)
    collected = np.zeros((n, p), np.float64)
    rows = []
    players = _settle(game, states, rng)
    while (players != TERMINAL).any():
        visits, q, root, chosen = teacher.search(states, players, decisions,
                                                 config.sample_decisions, rng)
        if config.student:
            chosen = played(game, config, agents, episodes, states, players, decisions,
                            chosen, rng)
        idx = np.flatnonzero(players >= 0)
        kept = visits[idx] > 0
        rows.append({
            "state": states[idx].copy(), "player": players[idx].astype(np.int8),
            "episode": episodes[idx].astype(np.int32),
            "decision": decisions[idx].astype(np.int32), "action": chosen[idx].astype(np.int16),
            "root_value": root[idx].astype(np.float32),
            "collected": collected[idx].astype(np.float32),
            "child_count": kept.sum(axis=1).astype(np.int16),
            "child_action": np.nonzero(kept)[1].astype(np.int16),
            "child_visits": visits[idx][kept].astype(np.int32),
            "child_q": q[idx][kept].astype(np.float32)})
        sub = states[idx]
        collected[idx] += api.step_inplace(sub, chosen[idx])
        states[idx] = sub
        decisions[idx] += 1
        players = _settle(game, states, rng)
    out = {key: np.concatenate([r[key] for r in rows]) for key in rows[0]}
    out["game_returns"] = collected.astype(np.float32)
    out["game_scores"] = api.scores(states) if game.kernels.scores_one is not None \
        else np.zeros((n, p), np.int64)
    out["game_decisions"] = decisions.astype(np.int32)
    return out


def played(game, config, agents, episodes, states, players, decisions, chosen, rng):
    """The moves played in games at a decision node: the teacher's ``chosen`` for a game's
    first ``sample_decisions`` decisions, then the student's, or the opponent's at the seats
    that are not the student's (seat ``episode % players``)."""
    student, opponent = agents
    late = np.flatnonzero((players >= 0) & (decisions >= config.sample_decisions))
    by_student = late if opponent is None else late[
        players[late] == episodes[late] % game.num_players]
    for agent, rows in ((student, by_student), (opponent, np.setdiff1d(late, by_student))):
        if agent is not None and len(rows):
            chosen[rows] = seat_act(agent, game, states[rows], rng)
    return chosen


def _settle(game, states, rng):
    """Plays the chance nodes (drawn from ``rng``) until every game is at a decision node or
    over; the players to move."""
    api = game.unchecked
    while True:
        players = api.current_player(states)
        chance = np.flatnonzero(players == CHANCE)
        if not len(chance):
            return players
        sub = states[chance]
        api.apply_chance(sub, api.sample_chance(sub, rng))
        states[chance] = sub


def distill(config, folder, progress=True, game=None):
    """Writes the dataset of ``config`` into ``folder`` (created if missing), part by part; a
    folder that already holds some of this dataset's parts is resumed (its ``dataset.json``
    must name the same settings, and the parts it keeps are checked first). The folder is
    claimed (``savanna.files.claimed``) while it is written: a second writer is refused.
    ``game``: an instance for a game not in the registry. Returns the folder."""
    from tqdm.auto import tqdm

    folder = Path(folder)
    game = game if game is not None else resolve_game(config.game, config.game_options)
    check_teacher_fits(config, game)
    meta = {"format": FORMAT, "version": VERSION, "config": config.to_dict(),
            "options": game_options(game), "num_players": game.num_players,
            "num_actions": game.num_actions, "rules_version": game.rules_version,
            "package_version": package_version(), "parts": {}}
    with claimed(folder, "dataset folder"):
        if (folder / META_FILE).exists():
            old = read_meta(folder)
            if old["config"] != meta["config"]:
                raise ValueError(f"{clip_path(folder)} holds a dataset of other settings; "
                                 "give a new folder to start another")
            check_game(old, game, folder)
            meta["parts"] = kept_parts(folder, old, game)
        elif any(p.name != CLAIM_FILE for p in folder.iterdir()):
            raise ValueError(f"{clip_path(folder)} holds other files; give a new folder")
        write_meta(folder, meta)
        todo = [k for k in range(num_parts(config)) if part_file(folder, k).name
                not in meta["parts"]]
        bar = tqdm(total=config.games, initial=config.games - sum(
            part_games(config, k) for k in todo), unit="game", desc=f"distill {game.name}",
            disable=not progress)
        with bar:
            for k in todo:
                part = play_part(game, config, k)
                buffer = io.BytesIO()
                np.savez(buffer, **part)
                atomic_write_bytes(part_file(folder, k), buffer.getvalue())
                meta["parts"][part_file(folder, k).name] = digest(buffer.getvalue())
                write_meta(folder, meta)
                bar.update(len(part["game_returns"]))
                bar.set_postfix(positions=f"{len(part['player']):,}")
    return folder
