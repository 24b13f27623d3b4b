"""What a study plays: every match of every section for one game, named and seeded.

``plan(game, settings, seed)`` lists the ``Planned`` matches: ``balance`` (identical agents in
every seat, one match per strength), ``chain`` (the direct matches of the skill population,
``skill_matches``), ``upset`` (an agent against one with ``upset_ratio`` times its budget)
and, for a game with chance, ``chance``: three matches of the same agents whose randomness is
keyed to each decision (``savanna.studies.coupled``), "a" and "b" with the same decision
seeds and chance from two streams, "c" with a's chance and other decision seeds (the
control). A match's seeds come from the study's seed and the match's name alone, so that
adding a section or a strength never changes the games of the others.
"""
import zlib
from typing import NamedTuple

import numpy as np

from savanna.registry import GAMES

__all__ = ["Planned", "balance_agents", "chain_agents", "other_agents", "plan", "skill_matches",
           "skill_population"]

RANDOM = "random"


class Planned(NamedTuple):
    """One match of a study: ``agents`` holds one spec per seat (seats rotate)."""

    section: str       # balance, chain, upset or chance
    name: str          # unique in the study: "balance random", "chain 2 vs 1", ...
    agents: tuple
    games: int
    seed: int
    chance_seed: int | None  # None: chance comes from the decisions' stream; else keyed play
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


def other_agents(settings):
    """The skill population's second family: ``settings.other_agents``, or by default MCTS
    drawing its move in proportion to its visits (temperature 1) at the chain's top budget
    and at an eighth of it."""
    if settings.other_agents:
        return list(settings.other_agents)
    sims = sorted({max(settings.chain_top // 8, 1), settings.chain_top})
    return [f"mcts:sims={s},temperature=1" for s in sims]


def skill_population(settings):
    """The agents whose ratings measure skill: the chain, then the second family."""
    chain = chain_agents(settings)
    return chain + [a for a in other_agents(settings) if a not in chain]


def skill_matches(settings):
    """``(stronger, weaker)`` of every direct match of the skill population: each adjacent
    pair of the chain, each pair two apart, and each agent of the second family against
    random, the chain's middle and its top."""
    chain = chain_agents(settings)
    pairs = list(zip(chain[1:], chain)) + list(zip(chain[2:], chain))
    anchors = list(dict.fromkeys([chain[0], chain[len(chain) // 2], chain[-1]]))
    pairs += [(other, anchor) for other in skill_population(settings)[len(chain):]
              for anchor in anchors]
    return pairs


def plan(game, settings, seed):
    """Every ``Planned`` match of a study of ``game`` (module docstring)."""
    p = game.num_players
    matches = []

    def add(section, name, agents, games, record=False):
        matches.append(Planned(section, name, tuple(agents), games, _seed(seed, name), None,
                               record))

    for spec in balance_agents(game, settings):
        add("balance", f"balance {spec}", [spec] * p, settings.balance_games, record=True)
    for strong, weak in skill_matches(settings):
        add("chain", f"chain {strong} vs {weak}", [strong] + [weak] * (p - 1),
            settings.chain_games)
    weak, strong = mcts(settings.upset_sims), mcts(settings.upset_sims * settings.upset_ratio)
    add("upset", f"upset {strong} vs {weak}", [strong] + [weak] * (p - 1), settings.upset_games)
    if game.has_chance:
        agents = [mcts(settings.upset_sims)] * p
        for tag, decisions, chance in (("a", "chance", "chance a"), ("b", "chance", "chance b"),
                                       ("c", "chance c", "chance a")):
            matches.append(Planned("chance", f"chance {tag}", tuple(agents),
                                   settings.chance_games, _seed(seed, decisions),
                                   _seed(seed, chance), False))
    return matches


def _seed(seed, name):
    """A match's seed from the study's ``seed`` and the match's ``name``."""
    key = zlib.crc32(name.encode())
    return int(np.random.SeedSequence([seed, key]).generate_state(1, np.uint64)[0] >> 1)
