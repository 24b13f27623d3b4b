"""``python -m experiments``: the ``savanna`` command."""
import sys

from experiments.cli import main

sys.exit(main())
