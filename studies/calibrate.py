"""``savanna study --calibrate``: the study's measures on games whose answers are known
(``savanna.studies.known``), expected against measured.

* Nim with 0, 25, 50, 75 and 100% of its games replaced by a coin flip, measured against Nim:
  the share of chance is the share mixed in (its interval holds it), or, for the pure coin,
  no skill measured (elsewhere inconclusive: too few games to tell the agents apart);
* Nim with heaps 1, 1, 0 (no choice, no chance): no skill measured, no share;
* a fair coin: no skill chain, chance alone changes half the winners;
* Nim with a perfect player in the population: a skill chain of at least 3;
* a coin biased 70% towards seat 0: both seats differ from even after Holm's correction;
* Nim between perfect players, chance redrawn by keyed play: chance alone 0.
"""
from pathlib import Path
from typing import NamedTuple

from savanna.agents.arena.results import MatchResult
from savanna.studies.budgets import StudySettings
from savanna.studies.coupled import play_keyed
from savanna.studies.known import CoinFlip, MixedNim, PerfectAgent
from savanna.studies.luck import chance_sensitivity
from savanna.studies.run import run_study

__all__ = ["Check", "calibrate"]

PERFECT = "savanna.studies.known:PerfectAgent"
SHARES = (0, 25, 50, 75, 100)


class Check(NamedTuple):
    """One known answer: what was measured, what was expected, and whether it holds (None:
    nothing to hold it against, as a share of chance where no skill was measured)."""

    game: str
    measure: str
    expected: str
    measured: str
    holds: bool | None

    def __str__(self):
        verdict = {True: "holds", False: "DOES NOT HOLD", None: "inconclusive"}[self.holds]
        return (f"{self.game:<33} {self.measure:<19} expected {self.expected:<22} "
                f"measured {self.measured}: {verdict}")


def _pct(value, interval):
    return f"{value:.0%} [{interval[0]:.0%}, {interval[1]:.0%}]"


def calibrate(folder, budget="standard", seed=0, workers=None, progress=True):
    """Play the known-answer games at ``budget`` into ``folder`` (resumable, as any study);
    the ``Check`` of each known answer (module docstring)."""
    folder = Path(folder)
    settings = StudySettings.budget(budget, network=False, reference="")
    where = dict(seed=seed, workers=workers, progress=progress)
    games = [MixedNim(coin=x) for x in SHARES] + [MixedNim((1, 1, 0)), CoinFlip(50),
                                                  CoinFlip(70)]
    study = run_study(games, folder / "known", settings, reference=MixedNim(), **where)
    checks = []
    for x, v in zip(SHARES, study.variants):
        c = v["chain"]
        if "chance_share" in c:
            checks.append(Check(v["variant"], "share of chance", f"{x}% in the interval",
                                _pct(c["chance_share"], c["chance_share_ci"]),
                                bool(c["chance_share_ci"][0] <= x / 100
                                     <= c["chance_share_ci"][1])))
        else:
            checks.append(Check(v["variant"], "share of chance", f"{x}% in the interval",
                                "no skill measured", True if x == 100 else None))
    no_choice, fair, biased = study.variants[len(SHARES):]
    checks.append(Check(no_choice["variant"], "skill", "no skill measured",
                        "no skill measured" if not no_choice["chain"]["skill_measured"] else
                        f"skill, p = {no_choice['chain']['no_skill_p']:.3f}",
                        not no_choice["chain"]["skill_measured"]))
    checks.append(Check(fair["variant"], "skill chain", "0",
                        str(fair["chain"]["length"]), fair["chain"]["length"] == 0))
    chance = fair["luck"]["chance"]
    checks.append(Check(fair["variant"], "chance alone", "50% in the interval",
                        _pct(chance["chance_alone"], chance["chance_alone_ci"]),
                        bool(chance["chance_alone_ci"][0] <= 0.5
                             <= chance["chance_alone_ci"][1])))
    seats = [s for b in biased["balance"] for s in b["seats"]]
    checks.append(Check(biased["variant"], "seats after Holm", f"its {len(seats)} rows differ",
                        f"{sum(s['finding'] for s in seats)} differ of {study.tested} tested",
                        all(s["finding"] for s in seats)))
    perfect = run_study([MixedNim()], folder / "perfect",
                        StudySettings.budget(budget, network=False, reference="",
                                             other_agents=(PERFECT,)), **where).variants[0]
    checks.append(Check(perfect["variant"] + " + perfect", "skill chain", "3 or more",
                        f"{perfect['chain']['length']} "
                        f"({', '.join(perfect['chain']['longest'])})",
                        perfect["chain"]["length"] >= 3))
    checks.append(_deterministic(settings.chance_games, seed))
    return checks


def _deterministic(games, seed):
    """Nim between perfect players, played three times with keyed randomness."""
    game, agents = MixedNim(), [PerfectAgent()] * 2
    results = [MatchResult(game.name, ["perfect"] * 2, [{}, {}], seed, *play_keyed(
        game, agents, decisions, chance, 0, games)[:3])
        for decisions, chance in ((seed, seed + 1), (seed, seed + 2), (seed + 3, seed + 1))]
    measured = chance_sensitivity(*results)
    return Check("mixed_nim 2p, perfect players", "chance alone", "0, interval at 0",
                 _pct(measured["chance_alone"], measured["chance_alone_ci"]),
                 bool(measured["chance_alone"] == 0 and measured["chance_alone_ci"][0] <= 0
                      <= measured["chance_alone_ci"][1]))
