"""``python -m savanna.experiments``: the ``savanna`` command."""
import sys

from savanna.experiments.cli import main

sys.exit(main())
