"""Play-time agents and search: random, greedy, exact, MCTS, the Gumbel search, the agents that
play a trained network (``ppo``, ``az``), position analysis, and the registry that turns specs
into agents. Nothing here imports a trainer: playing a model loads only this room and
``savanna.agents.models``."""
