"""The settings of a distillation dataset (``DistillConfig``, saved in its ``dataset.json``) and
the checks of its agents: the teacher (a UCT spec, ``teacher_settings``), the student and its
opponent (``movers``). Apart from ``savanna.agents.training.distill`` so that ``savanna distill
--help`` (its flags come from these fields) loads neither numba nor torch."""
import dataclasses
from dataclasses import dataclass

import numpy as np

from savanna.agents.play.base import agent_settings
from savanna.agents.settings import MAX_GAMES, setting, settings_from_dict
from savanna.errors import clip

__all__ = ["TEACHER_SETTINGS", "DistillConfig", "movers", "teacher_settings"]

TEACHER_SETTINGS = ("sims", "c", "rollouts", "determinizations")


@dataclass
class DistillConfig:
    """The settings of a distillation dataset; saved in ``dataset.json``."""

    game: str = setting("zebres", "the game's registry name")
    game_options: dict = setting({}, "the game's keyword options")
    teacher: str = setting("mcts:sims=64", "the teacher: a UCT agent spec (mcts:sims=N,c=X,"
                                           "rollouts=K,determinizations=D); without D it "
                                           "searches the true state, with D it splits its "
                                           "simulations over D draws of what the mover "
                                           "cannot see")
    games: int = setting(10_000, "games of teacher self-play")
    part_games: int = setting(512, "games searched together and saved as one part")
    sample_decisions: int = setting(12, "each game's first decisions drawn in proportion to "
                                        "the visits (variety); the most visited after")
    seed: int = setting(0, "random seed")
    student: str = setting("", "DAgger: an agent spec (az:model.pt, ...) whose moves are played "
                               "after the sampled ones, every position still labelled by the "
                               "teacher: the positions the student reaches; '': the teacher's "
                               "moves")
    opponent: str = setting("", "with a student: an agent spec that plays every seat but the "
                                "student's (seat g % players in game g): the student's games "
                                "against the agent it must beat")

    def __post_init__(self):
        if not isinstance(self.game, str) or not isinstance(self.game_options, dict):
            raise ValueError(f"game must be a name and game_options a dict, got "
                             f"{clip(self.game)} and {clip(self.game_options)}")
        for name, low, high in (("games", 1, MAX_GAMES), ("part_games", 1, 65_536),
                                ("sample_decisions", 0, 1 << 30), ("seed", 0, 1 << 63)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or not low <= value <= high:
                raise ValueError(f"{name} must be an int in {low}..{high:,}, got {clip(value)}")
        teacher_settings(self.teacher)
        if self.opponent and not self.student:
            raise ValueError("an opponent plays against a student: give student too")
        movers(self)

    def to_dict(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data):
        return settings_from_dict(cls, data, "distill")


def teacher_settings(spec):
    """``(sims, c, rollouts, determinizations)`` of a UCT teacher spec (``determinizations``
    None when the spec names none: the teacher searches the true state); a one-line ValueError
    for any other spec, or for a setting the teacher would not use (``temperature``: the
    teacher's move is drawn by ``sample_decisions``; ``max_nodes``: the trees are sized to the
    simulations)."""
    from savanna.agents.play.mcts import MCTSAgent  # here: numba, which the flags do without
    from savanna.agents.play.registry import make_agent

    agent = make_agent(spec)
    if not isinstance(agent, MCTSAgent) or agent.evaluator is not None \
            or agent.time_budget is not None:
        raise ValueError(f"the teacher must be a UCT agent with a simulation count, "
                         f"'mcts:sims=N[,c=X,rollouts=K,determinizations=D]'; got {clip(spec)}")
    unused = sorted(set(agent_settings(agent)) - set(TEACHER_SETTINGS))
    if unused:
        raise ValueError(f"the teacher {clip(spec)} sets {', '.join(unused)}, which distill "
                         f"does not use; a teacher takes {', '.join(TEACHER_SETTINGS)} only")
    if agent.determinizations is not None and agent.determinizations > agent.sims:
        raise ValueError(f"the teacher's determinizations ({agent.determinizations}) must not "
                         f"exceed its sims ({agent.sims}): each tree needs a simulation")
    return agent.sims, agent.c, agent.rollouts, agent.determinizations


def movers(config):
    """``(student, opponent)`` agents of ``config`` (None where not set)."""
    from savanna.agents.play.registry import make_agent

    return tuple(make_agent(spec) if spec else None for spec in (config.student,
                                                                  config.opponent))
