"""``savanna bench``: the throughput benchmarks, as ``make bench`` (``savanna.benchmarks.report``,
which parses its own options: ``savanna bench --help``)."""
from savanna.cli.arguments import Parser

__all__ = ["add_parser", "run"]


def add_parser(commands):
    """Register ``bench`` on the ``savanna`` command's subparsers."""
    bench = commands.add_parser(
        "bench", add_help=False)
    bench.set_defaults(run=run)
    return bench


def run(args, extra):
    """The benchmarks with the arguments ``extra`` (those ``savanna bench`` did not parse)."""
    try:
        from savanna.benchmarks.report import main as bench_main
    except ImportError as err:
        raise ValueError(f"the benchmarks are not available ({err})") from None
    return bench_main(extra, prog="savanna bench", parser_class=Parser)
