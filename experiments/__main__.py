"""``python -m savanna.experiments``, the old name of ``python -m savanna.cli`` (one release)."""
import sys
import warnings

from savanna.cli.main import main

warnings.warn("python -m savanna.experiments is now python -m savanna.cli (or savanna); the old "
              "name goes in the next release", DeprecationWarning, stacklevel=1)
sys.exit(main())
