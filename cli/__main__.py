"""``python -m savanna.cli``: the ``savanna`` command."""
import sys

from savanna.cli.main import main

sys.exit(main())
