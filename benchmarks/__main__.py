"""``python -m benchmarks`` (also ``make bench`` and ``savanna bench``)."""
import sys

from benchmarks.report import main

sys.exit(main(sys.argv[1:]))
