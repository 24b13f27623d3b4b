"""The conformance suite's pytest plugin (``pytest -p savanna.conformance.plugin``): the
``--savanna-game`` option, the Hypothesis profiles, and with ``--savanna-clauses`` one line per
failing test naming its clause (what ``savanna check`` prints instead of pytest's report)."""
import re
import sys
from pathlib import Path

import pytest
from hypothesis import settings

import savanna.conformance

# Property-based tests: a seeded sample by default, a larger one with --hypothesis-profile=full.
settings.register_profile("ci", max_examples=40, derandomize=True, database=None, deadline=None)
settings.register_profile("full", max_examples=1000, derandomize=True, database=None,
                          deadline=None)
settings.load_profile("ci")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """In a source checkout the suite's folder, ``conformance/``, has no package above it, so
    pytest names its files by the folder alone (``conformance.test_play``): that name is made
    to mean the package the folder is, ``savanna.conformance``, so that the package is
    imported once and each of its tests collected and run once (installed, the folder sits
    in ``savanna/`` and pytest names them ``savanna.conformance.test_play`` by itself)."""
    folder = Path(savanna.conformance.__file__).parent
    if not (folder.parent / "__init__.py").is_file():
        sys.modules.setdefault(folder.name, savanna.conformance)


def pytest_addoption(parser):
    group = parser.getgroup("savanna", "Savanna's conformance suite")
    group.addoption("--savanna-game", action="append", metavar="NAME",
                    help="check this registered game (repeatable; default: every game)")
    group.addoption("--savanna-clauses", action="store_true",
                    help="report one line per failing clause, then a count")


def clause(report):
    """``kuhn_toy-num_players=2: protocol: masks probabilities rewards and length``: the
    configuration, then the clause's name."""
    params = report.nodeid.partition("[")[2].rstrip("]")
    return f"{params or 'all games'}: {clause_name(report.nodeid)}"


def clause_name(nodeid):
    """``protocol: masks probabilities rewards and length``: the name of a test's clause, the
    suite's module and the test's name in words, as the adding-a-game guide lists them."""
    path, _, name = nodeid.partition("::")
    module = path.rpartition("/")[2].removesuffix(".py").removeprefix("test_")
    return f"{module}: {name.partition('[')[0].removeprefix('test_').replace('_', ' ')}"


def readable(why):
    """A failure's message on one line, with what reads as noise replaced by what it is: a
    long bytes literal (an observation's raw bytes) and an SVG picture by words saying what
    they were, and a traceback by its last line (the cause)."""
    if "Traceback (most recent call last)" in why:
        why = why.rstrip().splitlines()[-1]
    why = re.sub(r"'<svg.*?</svg>'", "<an SVG picture>", why, flags=re.S)
    why = re.sub(r"""(?<!\w)b(['"]).*?(?<!\\)\1""",
                 lambda m: m[0] if len(m[0]) <= 40 else "<raw bytes>", why)
    return " ".join(why.split())


class Clauses:
    """Collects the outcomes; prints the failures, one line each, and a count at the end."""

    def __init__(self):
        self.failed, self.passed, self.skipped = [], 0, 0

    def pytest_runtest_logreport(self, report):
        if report.failed:
            crash = getattr(report.longrepr, "reprcrash", None)
            why = readable(crash.message if crash else str(report.longrepr))
            self.failed.append(f"FAILED {clause(report)} -- {why[:300]}")
        elif report.when == "call" and report.passed:
            self.passed += 1
        elif report.skipped:
            self.skipped += 1

    def pytest_collectreport(self, report):
        if report.failed:
            self.failed.append(f"FAILED collecting {report.nodeid}: "
                               f"{' '.join(str(report.longrepr).split()[-30:])}")

    def pytest_sessionfinish(self, session, exitstatus):
        for line in self.failed:
            print(line, flush=True)
        print(f"{len(self.failed)} failed, {self.passed} passed, {self.skipped} skipped",
              flush=True)


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if config.getoption("savanna_clauses"):
        config.pluginmanager.register(Clauses(), "savanna-clauses")
