"""The test suite. ``tests`` also spans any ``tests/`` folder beside a package on ``sys.path``
(``pkgutil.extend_path``), so that a game kept outside the checkout brings its own
``tests/<game>/twin.py`` for the fuzz suite (tests/test_new_game.py's toy game does)."""
import pkgutil

__path__ = pkgutil.extend_path(__path__, __name__)
