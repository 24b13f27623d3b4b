"""The old name of the command line and the board, kept for one release: ``savanna.cli``,
``savanna.board`` and ``savanna.studies.study`` took their places (each old name warns where it
went)."""
from savanna.lazy import lazy_names, moved_modules

_COMMANDS = ("analyse", "arena", "bench", "check", "demo", "distill", "ladder", "play", "replay",
             "review", "serve", "sweep", "warmup")
_BOARD = {"analysis": "analysis_jobs", "reviews": "review_jobs", "listening": "network",
          "unplaced": "hidden_paths"}

moved_modules(__name__, {
    "board": "savanna.board", "cli": "savanna.cli.main", "runs": "savanna.cli.run_folders",
    **{f"board.{old}": f"savanna.board.{new}" for old, new in _BOARD.items()},
    **{name: f"savanna.cli.{name}_command" for name in _COMMANDS},
    **{name: f"savanna.cli.{name}" for name in ("arguments", "run_loop", "study_command",
                                                "train_az", "train_ppo", "train_td")}})

__getattr__, __dir__ = lazy_names(globals(), {
    "run_ppo_training": "savanna.cli:run_ppo_training",
    "run_az_training": "savanna.cli:run_az_training",
    "study": "savanna.studies:study"}, moved=True)
