"""The known-answer games and the perfect player of ``savanna.studies.known``, under the
names the tests import them by (``tests.agents.study_games:PerfectAgent`` is an agent spec)."""
from savanna.studies.known import CoinFlip, MixedNim, PerfectAgent

__all__ = ["CoinFlip", "MixedNim", "PerfectAgent"]
