"""What kind of game is it: balance, skill depth, luck and shape, measured with the toolkit's
own agents (``savanna study``; the study guide). One job per module: ``settings`` (budgets),
``plan`` (the matches), ``play`` (playing and keeping them, resumable), ``balance``, ``skill``,
``luck``, ``shape`` (the measures), ``result`` and ``charts`` (tables, files, figures), ``run``
(a whole study)."""
from savanna.agents.study.result import Study
from savanna.agents.study.run import run_study, variant_labels
from savanna.agents.study.settings import BUDGETS, StudySettings

__all__ = ["BUDGETS", "Study", "StudySettings", "run_study", "variant_labels"]
