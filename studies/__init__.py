"""What kind of game is it: balance, skill depth, luck and shape, measured with the toolkit's
own agents (``study(game, ...)``, ``savanna study``; the study guide). One job per module:
``budgets`` (the settings), ``plan`` (the matches), ``match_parts`` (playing and keeping them,
resumable), ``coupled`` (games
with every random draw keyed to its place), ``balance``, ``skill``, ``luck``, ``shape`` (the
measures), ``ratings`` (Bradley-Terry over a population, clustered by game),
``significance`` (tests and Holm's correction), ``result`` and ``charts`` (tables, files,
figures), ``run`` (a whole study, and ``study``), ``known`` (games whose answers are known) and
``calibrate`` (the measures on them)."""
from savanna.lazy import lazy_names

__all__ = ["BUDGETS", "Study", "StudySettings", "run_study", "study", "variant_labels"]

# imported on first use: the command line's ``savanna study --help`` loads no agent
__getattr__, __dir__ = lazy_names(globals(), {
    "BUDGETS": "savanna.studies.budgets:BUDGETS",
    "StudySettings": "savanna.studies.budgets:StudySettings",
    "Study": "savanna.studies.result:Study",
    "run_study": "savanna.studies.run:run_study",
    "study": "savanna.studies.run:study",
    "variant_labels": "savanna.studies.run:variant_labels"})
