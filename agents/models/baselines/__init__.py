"""The shipped AlphaZero models, one file per game and player count (``az:baseline``,
``savanna.agents.play.az_agent.baseline_path``): data, no code."""
