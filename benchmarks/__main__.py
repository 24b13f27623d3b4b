"""``python -m savanna.benchmarks`` (also ``make bench`` and ``savanna bench``)."""
import sys

from savanna.benchmarks.report import main

sys.exit(main(sys.argv[1:]))
