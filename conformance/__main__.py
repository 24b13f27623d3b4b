"""``python -m savanna.conformance GAME [GAME ...] [pytest options]``: ``savanna check``."""
import sys

from savanna.conformance.check import main

sys.exit(main(sys.argv[1:]))
