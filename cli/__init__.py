"""The ``savanna`` command line, one module per command (``main`` gathers them), the run loop
and the run folders; and whole training runs from Python: ``run_ppo_training(config)`` and
``run_az_training(config)`` are ``savanna train ppo`` and ``savanna train az`` (a run folder with
the settings, logs and checkpoints; returns it)."""
from savanna.lazy import lazy_names

# public name -> "module:attribute", imported on first use (the command line stays light)
_LAZY = {
    "run_ppo_training": "savanna.cli.train_ppo:run_training",
    "run_az_training": "savanna.cli.train_az:run_training",
}

__all__ = ["run_az_training", "run_ppo_training"]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
