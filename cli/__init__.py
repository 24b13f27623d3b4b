"""The ``savanna`` command line, one module per command, and whole training runs from Python:
``run_ppo_training(config)`` and ``run_az_training(config)`` are ``savanna train ppo`` and
``savanna train az`` (a run folder with the settings, logs and checkpoints; returns it);
``study(game, ...)`` is ``savanna study`` (balance, skill depth, luck and shape; a ``Study``)."""
from savanna.lazy import lazy_names

# public name -> "module:attribute", imported on first use (the command line stays light)
_LAZY = {
    "run_ppo_training": "savanna.experiments.train_ppo:run_training",
    "run_az_training": "savanna.experiments.train_az:run_training",
    "study": "savanna.experiments.study_command:study",  # a module named study would hide it
}

__all__ = ["run_az_training", "run_ppo_training", "study"]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
