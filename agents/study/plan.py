"""What a study plays: every match of every section for one game, named and seeded.

``plan(game, settings, seed)`` lists the ``Planned`` matches: ``balance`` (identical agents in
every seat, one match per strength), ``chain`` (each agent of the skill chain against the one
below it), ``upset`` (an agent against one with ``upset_ratio`` times its budget) and, for a
game with chance, ``chance`` (the same agents with the same decision seeds, twice, chance drawn
from two streams). A match's seeds come from the study's seed and the match's name alone, so
that adding a section or a strength never changes the games of the others.
"""
import zlib
from typing import NamedTuple

import numpy as np

from savanna.registry import GAMES

__all__ = ["Planned", "balance_agents", "chain_agents", "plan"]

RANDOM = "random"


class Planned(NamedTuple):
    """One match of a study: ``agents`` holds one spec per seat (seats rotate)."""

    section: str       # balance, chain, upset or chance
    name: str          # unique in the study: "balance random", "chain 2 vs 1", ...
    agents: tuple
    games: int
    seed: int
    chance_seed: int | None  # None: chance comes from the decisions' stream
    record: bool       # keep the games' records (the shape section reads them)


def mcts(sims):
    return f"mcts:sims={sims}"


def balance_agents(game, settings):
    """The strengths of the balance section: random, MCTS at each budget, and the shipped
    network when there is one for the game, its player count and its options, then
    ``extra_agents``."""
    agents = [RANDOM, *(mcts(s) for s in settings.balance_sims)]
    if settings.network and game.name in GAMES and _has_baseline(game):
        agents.append("az:baseline")
    return agents + [spec for spec in settings.extra_agents if spec not in agents]


def _has_baseline(game):
    """Whether a network is shipped for ``game``, its player count and its options."""
    from savanna.agents.play.az_agent import BASELINE, AZAgent

    try:
        AZAgent(BASELINE).network(game)
    except ValueError:
        return False
    return True


def chain_agents(settings):
    """The skill chain: random, then MCTS with 1, 2, 4, ... simulations up to ``chain_top``."""
    sims = [1 << k for k in range(settings.chain_top.bit_length())]
    return [RANDOM, *(mcts(s) for s in sims)]


def plan(game, settings, seed):
    """Every ``Planned`` match of a study of ``game`` (module docstring)."""
    p = game.num_players
    matches = []

    def add(section, name, agents, games, record=False):
        matches.append(Planned(section, name, tuple(agents), games, _seed(seed, name), None,
                               record))

    for spec in balance_agents(game, settings):
        add("balance", f"balance {spec}", [spec] * p, settings.balance_games, record=True)
    chain = chain_agents(settings)
    for weak, strong in zip(chain, chain[1:]):
        add("chain", f"chain {strong} vs {weak}", [strong] + [weak] * (p - 1),
            settings.chain_games)
    weak, strong = mcts(settings.upset_sims), mcts(settings.upset_sims * settings.upset_ratio)
    add("upset", f"upset {strong} vs {weak}", [strong] + [weak] * (p - 1), settings.upset_games)
    if game.has_chance:
        agents = [mcts(settings.upset_sims)] * p
        for tag in ("a", "b"):  # the same name for the seed: the same decision seeds
            matches.append(Planned("chance", f"chance {tag}", tuple(agents),
                                   settings.chance_games, _seed(seed, "chance"),
                                   _seed(seed, "chance " + tag), False))
    return matches


def _seed(seed, name):
    """A match's seed from the study's ``seed`` and the match's ``name``."""
    key = zlib.crc32(name.encode())
    return int(np.random.SeedSequence([seed, key]).generate_state(1, np.uint64)[0] >> 1)
