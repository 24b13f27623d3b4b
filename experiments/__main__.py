"""``python -m savanna_experiments``: the ``savanna`` command."""
import sys

from savanna_experiments.cli import main

sys.exit(main())
