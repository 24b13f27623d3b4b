"""Adapters to the wider ecosystem: PettingZoo, OpenSpiel and stable-baselines3.

Each adapter lives in its own module and imports its library there, so ``import savanna``
never needs them (``pip install '.[interop]'`` installs them):

* ``savanna.interop.pettingzoo``: every game as a PettingZoo AEC environment;
* ``savanna.interop.openspiel``: every game as an OpenSpiel Python game (``pyspiel``);
* ``savanna.interop.sb3``: the vector env as a stable-baselines3 ``VecEnv`` with
  ``action_masks()``, for sb3-contrib's ``MaskablePPO``.
"""
