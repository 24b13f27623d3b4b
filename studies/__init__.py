"""What kind of game is it: balance, skill depth, luck and shape, measured with the toolkit's
own agents (``savanna study``; the study guide). One job per module: ``settings`` (budgets),
``plan`` (the matches), ``play`` (playing and keeping them, resumable), ``coupled`` (games
with every random draw keyed to its place), ``balance``, ``skill``, ``luck``, ``shape`` (the
measures), ``ratings`` (Bradley-Terry over a population, clustered by game),
``significance`` (tests and Holm's correction), ``result`` and ``charts`` (tables, files,
figures), ``run`` (a whole study), ``known`` (games whose answers are known) and
``calibrate`` (the measures on them)."""
from savanna.agents.study.result import Study
from savanna.agents.study.run import run_study, variant_labels
from savanna.agents.study.settings import BUDGETS, StudySettings

__all__ = ["BUDGETS", "Study", "StudySettings", "run_study", "variant_labels"]
