"""Names a package offers but imports on first use (PEP 562), so that importing the package
stays light: ``savanna`` loads no numba, ``savanna.agents`` no trainer or torch; and the old
names of what moved, kept for one release, each warning where it went."""
import importlib
import importlib.abc
import importlib.util
import sys
import warnings

__all__ = ["lazy_names", "moved_modules"]


def lazy_names(namespace, table, moved=False):
    """``(__getattr__, __dir__)`` for the module whose ``globals()`` is ``namespace``:
    ``table`` maps each lazy name to ``"module:attribute"``; a name once imported is kept.
    With ``moved``, the names are old ones: each warns (DeprecationWarning) where it went."""

    def __getattr__(name):
        if name not in table:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        module, _, attribute = table[name].partition(":")
        if moved:
            warnings.warn(f"{namespace['__name__']}.{name} moved to {module}.{attribute}; "
                          "the old name goes in the next release", DeprecationWarning,
                          stacklevel=2)
        value = namespace[name] = getattr(importlib.import_module(module), attribute)
        return value

    def __dir__():
        return sorted({*namespace, *table})

    return __getattr__, __dir__


def moved_modules(package, table):
    """Lets the submodules of ``package`` that moved import by their old names for one
    release: ``table`` maps an old submodule (``"board"``) to the module that took its place
    (``"savanna.board"``), whose submodules follow (``board.server`` is
    ``savanna.board.server``). The old name is the new module itself (nothing loads twice);
    importing it warns (DeprecationWarning) where it went."""
    if not any(getattr(finder, "package", None) == package for finder in sys.meta_path):
        sys.meta_path.insert(0, _MovedFinder(package, table))


class _MovedFinder(importlib.abc.MetaPathFinder):
    def __init__(self, package, table):
        self.package, self.table = package, table

    def find_spec(self, fullname, path=None, target=None):
        rest = fullname.removeprefix(self.package + ".")
        old = max((name for name in self.table if rest == name or rest.startswith(name + ".")),
                  key=len, default=None)
        if rest == fullname or old is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(self.table[old] + rest[len(old):]))


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module that replaced it."""

    def __init__(self, new):
        self.new = new

    def create_module(self, spec):
        warnings.warn(f"{spec.name} moved to {self.new}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module):
        pass  # the new module ran when it was imported
