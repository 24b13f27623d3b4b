"""The ``savanna`` command line, one module per command, and whole training runs from Python:
``run_ppo_training(config)`` and ``run_az_training(config)`` are ``savanna train ppo`` and
``savanna train az`` (a run folder with the settings, logs and checkpoints; returns it)."""
import importlib

# public name -> "module:attribute", imported on first use (the command line stays light)
_LAZY = {
    "run_ppo_training": "savanna.experiments.train_ppo:run_training",
    "run_az_training": "savanna.experiments.train_az:run_training",
}

__all__ = ["run_az_training", "run_ppo_training"]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module 'savanna.experiments' has no attribute {name!r}")
    module, _, attribute = _LAZY[name].partition(":")
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value
