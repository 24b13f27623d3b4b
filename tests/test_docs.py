"""Every code example of the documentation runs.

* Python on the site's pages is in executed cells (MyST-NB ``code-cell``, run by ``make docs``:
  a failing cell fails the build), never in a plain ``python`` block that nothing would run;
* a guide's steps (``:class: guide-steps``) run as written in a fresh clone
  (tests/test_guide_steps.py);
* every command line of the pages and of the README names a real command and options the
  ``savanna`` parser accepts, or a real ``make`` target;
* every docstring example of a public module (the API reference shows them) is a doctest and
  runs here; an example given as a bare literal block (``Example::``) would run nowhere.
"""
import doctest
import importlib
import importlib.util
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from tests.test_guide_steps import STEPS_CLASS

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("**/*.md"))
PAGES = [page for page in PAGES if "_build" not in page.parts]
FENCE = re.compile(r"^(`{3,})(\S*)[^\n]*\n(.*?)^\1\s*$", re.M | re.S)
DIRECTIVES = {"{code-cell}", "{toctree}", "{include}", "{savanna-cli}", "{savanna-layout}"}


def _extension():
    spec = importlib.util.spec_from_file_location("savanna_docs",
                                                  ROOT / "docs" / "_ext" / "savanna_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MODULES = [name for modules in _extension().public_modules().values() for name in modules]


def _source(name):
    return Path(importlib.util.find_spec(name).origin).read_text()


def blocks(path):
    """``(language, body)`` of every fenced block of a Markdown file."""
    return [(m[2], m[3]) for m in FENCE.finditer(path.read_text())]


def test_the_site_has_its_pages():
    """A page per shipped game whose rules are a specification of ours (its rules_version
    names ``<name>.md``; the index lists games/* by glob): connect four, the benchmarks'
    yardstick on OpenSpiel's rules, has none."""
    from savanna.registry import GAMES, game_class

    shipped = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][
        "savanna.games"]
    names = {page.relative_to(ROOT / "docs").as_posix() for page in PAGES}
    games = {f"games/{name}.md" for name in shipped if name in GAMES
             and game_class(name).rules_version.partition(" ")[2].startswith(f"{name}.md@")}
    assert {"index.md", *games, "reference/cli.md", "changelog.md"} <= names
    assert games >= {"games/zebres.md", "games/bonobo.md", "games/banjooli.md"}
    assert len([name for name in names if name.startswith("guides/")]) >= 8


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_page_code_is_executed_or_a_command_line(page):
    text = page.read_text()
    for language, body in blocks(page):
        if language == "{code-block}" and body.startswith(STEPS_CLASS):
            continue  # a guide's steps, run by tests/test_guide_steps.py
        assert language in DIRECTIVES | {"console", "text"}, \
            f"a {language or 'plain'} block in {page.name} that nothing runs"
        if language == "{code-cell}":
            assert text.startswith("---\nfile_format: mystnb\n"), \
                f"{page.name} has code cells but is not a MyST-NB page"


def command_lines(path):
    """Every command of the ``console`` blocks of ``path``, comments cut, as argument lists."""
    for language, body in blocks(path):
        if language == "console":
            for line in body.splitlines():
                words = shlex.split(line, comments=True)
                if words:
                    yield words


def _check_command(words, parser, make_targets, bench_help):
    program, *args = words
    if program == "make":
        assert set(args) <= make_targets, f"no make target {args}"
    elif program == "savanna" and args == ["--help"]:
        with pytest.raises(SystemExit, match="0"):
            parser.parse_known_args(args)
    elif program == "savanna" and args == ["--version"]:
        from savanna.cli.main import main

        assert main(args) == 0
    elif program == "savanna":
        args, extra = parser.parse_known_args(args)
        if args.command == "bench":
            assert all(flag in bench_help for flag in extra), extra
        else:
            assert not extra, f"unknown arguments {extra} in {' '.join(words)}"
    else:
        # read: the shell's, to take a token typed but not echoed (the board's guide)
        assert program in {"ray", "pip", "read"}, f"an unknown program in {' '.join(words)}"


@pytest.mark.parametrize("path", [*PAGES, ROOT / "README.md"], ids=lambda p: p.name)
def test_command_lines_parse(path, capsys):
    from savanna.cli.main import build_parser, main

    make_targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(), re.M))
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    bench_help = capsys.readouterr().out
    for words in command_lines(path):
        _check_command(words, build_parser(), make_targets, bench_help)


def test_a_wrong_command_line_is_caught():
    from savanna.cli.main import build_parser

    with pytest.raises(AssertionError, match="unknown arguments"):
        _check_command(["savanna", "match", "zebres", "random", "--gmaes", "3"],
                       build_parser(), set(), "")
    with pytest.raises(AssertionError, match="no make target"):
        _check_command(["make", "tset"], build_parser(), {"test"}, "")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_are_doctests(name):
    assert not re.search(r"^\s*Examples?::\s*$", _source(name), re.M), \
        f"{name}: write examples as doctests (>>>) so that they run"


class AcceptsUnstatedOutput(doctest.OutputChecker):
    """Examples that show no output are run for what they do, not for what they print."""

    def check_output(self, want, got, optionflags):
        return not want or super().check_output(want, got, optionflags)


@pytest.mark.parametrize("name", [name for name in MODULES if ">>> " in _source(name)])
def test_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # what an example writes goes here
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(checker=AcceptsUnstatedOutput(),
                                   optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = []
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=report.append)
    assert runner.tries > 0
    assert runner.failures == 0, "".join(report)


def test_readme_python_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = [body for language, body in blocks(ROOT / "README.md") if language == "python"]
    assert code
    for body in code:
        exec(compile(body, "README.md", "exec"), {"__name__": "readme"})



def test_no_page_points_outside_the_repository_for_the_rules():
    """Each game's complete rules are in its own page: no page (nor the README) sends a reader
    to a folder that a user of the package never has."""
    pointing = [page.name for page in [*PAGES, ROOT / "README.md"]
                if "shared/" in page.read_text()]
    assert pointing == []
    for name in ("zebres", "bonobo", "banjooli"):
        text = (ROOT / "docs" / "games" / f"{name}.md").read_text()
        rules = text.partition("\n## The complete rules\n")[2].partition("\n## ")[0]
        assert len(rules.split()) > 600, name  # the whole rules, not a summary
