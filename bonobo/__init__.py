"""Bonobo Beach (Roland and Tobias Goslar, 2003): lay tiles on a beach of triangles and score
the spots where your pawns stand.

``BonoboGame`` is imported lazily, so that ``savanna.bonobo.notation`` and
``savanna.bonobo.reference`` can be used without loading the kernels.
"""

__all__ = ["BonoboGame"]


def __getattr__(name):
    if name == "BonoboGame":
        from savanna.bonobo.game import BonoboGame
        return BonoboGame
    raise AttributeError(f"module 'bonobo' has no attribute {name!r}")
