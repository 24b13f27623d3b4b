"""``python -m savanna.experiments``, the old name of ``python -m savanna.cli`` (one release)."""
import sys
import warnings

from savanna.cli.main import main

# stacklevel 2: the warning is runpy's, so shown only where deprecations are asked for (-W),
# and a script that reads this command's stderr reads what it read before
warnings.warn("python -m savanna.experiments is now python -m savanna.cli (or savanna); the old "
              "name goes in the next release", DeprecationWarning, stacklevel=2)
sys.exit(main())
