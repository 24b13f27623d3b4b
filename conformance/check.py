"""``savanna check GAME``: the conformance suite on registered games, one line per failing
clause; exit status 0 when every clause holds, 1 when one fails, 2 for a bad command line."""
import os
import sys
from pathlib import Path

from savanna.conformance import configs


def main(argv):
    """Run the suite on the games named first in ``argv`` (the rest goes to pytest, e.g.
    ``-k envs`` or ``--hypothesis-profile=full``)."""
    names = []
    while argv and not argv[0].startswith("-"):
        names.append(argv.pop(0))
    if not names:
        print("savanna check: error: name a registered game (savanna check GAME [pytest options])",
              file=sys.stderr)
        return 2
    try:
        configs(names)
    except ValueError as err:
        print(f"savanna check: error: {err}", file=sys.stderr)
        return 2
    import pytest  # here: the command line loads pytest only to check

    here = Path(__file__).parent
    args = ["-p", "savanna.conformance.plugin", "-p", "no:cacheprovider", "-p", "no:terminal",
            "-c", os.devnull, "--rootdir", str(here), "--savanna-clauses",
            *(f"--savanna-game={name}" for name in names), *argv, str(here)]
    code = pytest.main(args)
    return 0 if code == 0 else 1 if code == 1 else 2
