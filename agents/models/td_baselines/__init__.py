"""The shipped TD models, one file per game and player count (``td:baseline``,
``savanna.agents.play.td_agent.baseline_path``): data, no code."""
