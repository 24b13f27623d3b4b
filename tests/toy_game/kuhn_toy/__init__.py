"""Kuhn poker for two or three (a toy game): every seat antes a chip and is dealt one card,
face down, from a deck of ``players + 1`` (J Q K, and A with three players), each deal a chance
node whose outcome only the dealt seat sees; then one betting round. It is the toy of hidden
information: private chance outcomes (``chance_private_to``), ``resample_hidden`` and
``outcome_to_string``. ``KuhnGame`` is imported lazily, so that the registration loads no
numba."""
from savanna.registry import register_game

register_game("kuhn_toy", "kuhn_toy.game:KuhnGame", players=(2, 3),
              configs=({"num_players": 2}, {"num_players": 3}))
