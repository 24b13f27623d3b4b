"""The arena: matches and tournaments between any agents (``matches``), their results with
confidence intervals and ratings (``results``, ``stats``), and the ladder of reference
opponents (``ladder``). Imports play-time agents, never a trainer."""
