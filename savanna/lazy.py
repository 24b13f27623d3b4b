"""Names a package offers but imports on first use (PEP 562), so that importing the package
stays light: ``savanna`` loads no numba, ``savanna.agents`` no trainer or torch."""
import importlib

__all__ = ["lazy_names"]


def lazy_names(namespace, table):
    """``(__getattr__, __dir__)`` for the module whose ``globals()`` is ``namespace``:
    ``table`` maps each lazy name to ``"module:attribute"``; a name once imported is kept."""

    def __getattr__(name):
        if name not in table:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        module, _, attribute = table[name].partition(":")
        value = namespace[name] = getattr(importlib.import_module(module), attribute)
        return value

    def __dir__():
        return sorted({*namespace, *table})

    return __getattr__, __dir__
