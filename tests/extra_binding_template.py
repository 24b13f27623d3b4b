"""A template with extra bindings, for tests/test_compiled_template.py: ``scaled(x)`` is
``f(x) * K`` for the number ``K`` and the function ``f`` its caller binds
(``game.compiled(this module, K=2, f=add_one)``)."""
from typing import TYPE_CHECKING

from numba import njit

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    K = 1

    def f(x):
        return x


@njit(cache=True)
def add_one(x):
    return x + 1


@njit(cache=True)
def double(x):
    return 2 * x


@njit(cache=True)
def scaled(x):
    return f(x) * K
