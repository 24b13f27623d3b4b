"""What the site generates from the code instead of restating it.

* ``api/``: one page per public module of the packages pyproject.toml declares (autodoc), and
  an index grouped by package, written before every build (module names are never typed);
* ``tutorials/``: the example notebooks of ``notebooks``, copied in (MyST-NB runs
  them);
* ``savanna-cli``: the ``--help`` of the console script and of every (sub)command;
* ``savanna-layout GAME``: the observation layout a game declares, found through the game
  registry.
"""
import argparse
import contextlib
import importlib
import io
import os
import shutil
import tomllib
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
HELP_WIDTH = "100"


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def public_modules():
    """``{package: [its public modules]}`` for every package pyproject.toml installs: a
    module is public when no part of its name starts with an underscore."""
    settings = _pyproject()["tool"]["setuptools"]
    folders = settings.get("package-dir", {})
    found = {}
    for package in settings["packages"]:
        # the longest prefix that package-dir maps names the folder (savanna.agents: agents/)
        parts = package.split(".")
        cut = max((i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in folders),
                  default=0)
        folder = ROOT.joinpath(folders[".".join(parts[:cut])] if cut else "", *parts[cut:])
        found[package] = [f"{package}.{path.stem}" for path in sorted(folder.glob("*.py"))
                          if not path.stem.startswith("_")]
    return found


def _write_if_changed(path, text):
    """Write ``text`` only when it differs, so that Sphinx rebuilds only what changed."""
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _title(text, mark="="):
    return f"{text}\n{mark * len(text)}\n"


def write_api_pages(app):
    """The API reference: an index with one section per package, one page per module."""
    api = DOCS / "api"
    wanted = {api / "index.rst"}
    index = [_title("API reference"),
             "Generated from the docstrings of every public module (``make docs``). Start with "
             ":doc:`/guides/game-api`.\n"]
    for package, modules in public_modules().items():
        pages = [package, *modules]
        for name in pages:
            options = "   :no-members:\n" if name == package else ""
            page = api / f"{name}.rst"
            wanted.add(page)
            _write_if_changed(page, f"{_title(f'``{name}``')}\n.. automodule:: {name}\n"
                                    f"{options}")
        index.append(f"\n{_title(package, '-')}\n.. toctree::\n   :maxdepth: 1\n\n"
                     + "".join(f"   {name}\n" for name in pages))
    _write_if_changed(api / "index.rst", "\n".join(index))
    for stale in set(api.glob("*.rst")) - wanted:
        stale.unlink()


def copy_notebooks(app):
    """The example notebooks as tutorial pages (committed without outputs; MyST-NB runs them)."""
    target = DOCS / "tutorials"
    for book in sorted((ROOT / "notebooks").glob("*.ipynb")):
        copy = target / book.name
        if not copy.exists() or copy.read_bytes() != book.read_bytes():
            target.mkdir(exist_ok=True)
            shutil.copyfile(book, copy)


def console_script():
    """``(name, module)`` of the console script pyproject.toml declares (``savanna``)."""
    name, target = next(iter(_pyproject()["project"]["scripts"].items()))
    return name, target.split(":")[0]


def command_paths(parser, path=()):
    """Every command line that has its own help: ``()``, ``("play",)``, ``("train", "ppo")``..."""
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from command_paths(sub, (*path, name))


def help_text(main, path):
    """What ``<script> *path --help`` prints, at a fixed width."""
    out = io.StringIO()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*path, "--help"])
    finally:
        os.environ.pop("COLUMNS") if old is None else os.environ.update(COLUMNS=old)
    return out.getvalue()


class CommandLine(SphinxDirective):
    """The command-line reference: one section per command, its ``--help`` as printed."""

    def run(self):
        name, module_name = console_script()
        module = importlib.import_module(module_name)
        lines = []
        for path in command_paths(module.build_parser()):
            text = help_text(module.main, path)
            lines += [*_title(" ".join((name, *path)), "-").splitlines(), "", "::", ""]
            lines += [f"    {line}" for line in text.splitlines()] + [""]
        return self._parse(lines)

    def _parse(self, lines):
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, "<savanna-cli>"), node)
        return node.children


def game_module(game, module):
    """A module of the package of the game registered as ``game`` (``"notation"``...)."""
    from savanna.registry import game_class

    package = game_class(game).__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.{module}")


class Layout(SphinxDirective):
    """A table of the observation layout a game declares: part, offsets, size, meaning."""

    required_arguments = 1

    def run(self):
        layout = game_module(self.arguments[0], "spec").OBS
        lines = [f".. list-table:: Observation layout (``uint8[{layout.size}]``)",
                 "   :header-rows: 1", "", "   * - part", "     - values", "     - size",
                 "     - meaning"]
        for part in layout.parts:
            lines += [f"   * - ``{part.name}``",
                      f"     - {part.offset}–{part.offset + part.size - 1}",
                      f"     - {part.size}", f"     - {part.description}"]
        node = nodes.container()
        self.state.nested_parse(StringList(lines, "<savanna-layout>"), 0, node)
        return node.children


def setup(app):
    app.connect("builder-inited", write_api_pages)
    app.connect("builder-inited", copy_notebooks)
    app.add_directive("savanna-cli", CommandLine)
    app.add_directive("savanna-layout", Layout)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
