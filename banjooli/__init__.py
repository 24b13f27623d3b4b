"""Banjooli Xeet: an ostrich race for 2 to 5 players, each betting on the finishing order.

``BanjooliGame`` is imported lazily, so that ``savanna.banjooli.notation`` and
``savanna.banjooli.reference`` can be used without loading the kernels.
"""

__all__ = ["BanjooliGame"]


def __getattr__(name):
    if name == "BanjooliGame":
        from savanna.banjooli.game import BanjooliGame
        return BanjooliGame
    raise AttributeError(f"module 'banjooli' has no attribute {name!r}")
