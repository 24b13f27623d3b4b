"""``savanna check GAME [GAME ...] [pytest options]``: the conformance suite
(``savanna.conformance``) on registered games, one line per failing clause; exit status 0
when every clause holds, 1 when one fails, 2 for a bad command line. Options it does not know
go to pytest (``-k envs``, ``--hypothesis-profile=full``, ``-x``)."""
from savanna.conformance.check import main


def add_parser(commands):
    """Register ``check`` on the ``savanna`` command's subparsers."""
    check = commands.add_parser(
        "check",
        description="Run Savanna's generic tests (the protocol, kernels against the reference, "
                    "fuzzed inputs, hidden information, envs, agents, records, a speed smoke "
                    "test) on every configuration of the games named; one line per failing "
                    "clause. Other options go to pytest.")
    check.add_argument("games", nargs="+", metavar="GAME", help="a registered game")
    check.set_defaults(run=run)
    return check


def run(args, extra):
    return main([*args.games, *extra])
