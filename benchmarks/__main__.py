"""``python -m savanna_benchmarks`` (also ``make bench`` and ``savanna bench``)."""
import sys

from savanna_benchmarks.report import main

sys.exit(main(sys.argv[1:]))
