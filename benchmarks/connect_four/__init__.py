"""The old name of ``savanna.connect_four``, kept for one release (each old name warns where it
went)."""
from savanna.lazy import lazy_names, moved_modules

moved_modules(__name__, {name: f"savanna.connect_four.{name}"
                         for name in ("_kernels", "game", "notation", "reference", "twin")})

__getattr__, __dir__ = lazy_names(globals(), {
    "ConnectFourGame": "savanna.connect_four:ConnectFourGame"}, moved=True)
