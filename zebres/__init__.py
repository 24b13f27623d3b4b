"""Drôles de Zèbres (Bruno Cathala, 2004): place animals to win majorities in six sectors.

``ZebresGame`` is imported lazily, so that ``savanna.zebres.notation`` and
``savanna.zebres.reference`` can be used without loading the kernels.
"""

__all__ = ["ZebresGame"]


def __getattr__(name):
    if name == "ZebresGame":
        from savanna.zebres.game import ZebresGame
        return ZebresGame
    raise AttributeError(f"module 'zebres' has no attribute {name!r}")
