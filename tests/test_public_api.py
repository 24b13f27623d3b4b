"""The public API holds: ``docs/guides/public-api.md`` lists what a notebook may import, every
name on it imports, each listed module's ``__all__`` is exactly its list, the examples of the
docs, the README and the notebooks import nothing else, and every name of the previous
release's page still imports, warning where it moved."""
import ast
import importlib
import importlib.util
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guides" / "public-api.md"
FENCE = re.compile(r"^(`{3,})(\S*)[^\n]*\n(.*?)^\1\s*$", re.M | re.S)
ROW = re.compile(r"^\|(.*)\|\s*$")


def listed(text):
    """``{module: {names}}`` from the page's tables: under a ``## `module``` heading a table's
    first column is the name; a table whose header starts ``| module | name`` names both."""
    found, heading = defaultdict(set), None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = re.fullmatch(r"## `([\w.]+)`", line.strip())
            heading = heading[1] if heading else None
        elif (row := ROW.match(line)) and not set(row[1]) <= set("-| "):
            cells = [cell.strip() for cell in row[1].split("|")]
            codes = [re.fullmatch(r"`([\w.]+)`", cell) for cell in cells]
            if len(cells) == 3 and codes[0] and codes[1]:
                found[codes[0][1]].add(codes[1][1])
            elif len(cells) == 2 and codes[0] and heading:
                found[heading].add(codes[0][1])
    return dict(found)


PUBLIC = listed(PAGE.read_text())
# the page as the previous release shipped it: its names work for one more release
PREVIOUS = listed((ROOT / "tests" / "public_api_previous.md").read_text())
# the interop adapters need their peer (the interop extra)
PEERS = {"savanna.interop.openspiel": "pyspiel", "savanna.interop.pettingzoo": "pettingzoo",
         "savanna.interop.sb3": "stable_baselines3"}


def test_the_page_lists_the_modules_a_notebook_needs():
    assert {"savanna", "savanna.agents", "savanna.cli", "savanna.studies"} <= set(PUBLIC)
    assert {"make_agent", "play_match", "MCTSAgent", "AZAgent", "PPOConfig", "AZConfig",
            "analyse", "PPOTrainer", "fit"} <= PUBLIC["savanna.agents"]


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_listed_name_imports_and_all_is_the_list(module):
    if module in PEERS:
        pytest.importorskip(PEERS[module])
    imported = importlib.import_module(module)
    assert sorted(imported.__all__) == sorted(PUBLIC[module])
    missing = [name for name in PUBLIC[module] if not hasattr(imported, name)]
    assert missing == []


def deprecations(code):
    """The messages of the DeprecationWarnings about savanna that ``code`` gives, run in a
    fresh interpreter (a module warns when first imported), and what it prints."""
    done = subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-c", code],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in done.stderr.splitlines()
            if "DeprecationWarning" in line and "savanna" in line], done.stdout.strip()


def previous_names(moved):
    """``(module, name)`` of the previous page, those that moved or those that stayed (under
    their module, on today's page), a peer's adapter only where the peer is installed."""
    return [(module, name) for module, names in sorted(PREVIOUS.items()) for name in sorted(names)
            if (name not in PUBLIC.get(module, ())) == moved
            and (module not in PEERS or importlib.util.find_spec(PEERS[module]))]


def test_the_previous_names_that_stayed_import_without_a_warning():
    pairs = previous_names(moved=False)
    code = ("import importlib; "
            f"print(sum(hasattr(importlib.import_module(m), n) for m, n in {pairs!r}))")
    assert deprecations(code) == ([], str(len(pairs)))


@pytest.mark.parametrize("module, name", previous_names(moved=True))
def test_a_previous_name_that_moved_still_works_and_warns_where_it_went(module, name):
    """``from savanna.experiments import study``: the object of the new place, with a warning
    that names it."""
    new = {m: names for m, names in PUBLIC.items() if name in names}
    assert len(new) == 1, f"{module}.{name} is on no page or on several: {sorted(new)}"
    [place] = new
    code = (f"import {place}; from {module} import {name} as old; "
            f"print(old is {place}.{name})")
    warned, same = deprecations(code)
    assert same == "True"
    assert warned and all(f"moved to {place}" in line for line in warned), warned


def code_cells():
    """``(file, code)`` of every Python example: the pages' code cells and python blocks, the
    README's, the notebooks' code cells."""
    pages = [page for page in sorted((ROOT / "docs").glob("**/*.md")) if "_build" not in page.parts]
    for page in [*pages, ROOT / "README.md"]:
        for match in FENCE.finditer(page.read_text()):
            if match[2] in ("python", "{code-cell}"):
                yield page, match[3]
    for book in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(book.read_text())["cells"]:
            if cell["cell_type"] == "code":
                yield book, "".join(cell["source"])


def private_imports(code, public, games):
    """The imports of ``code`` from savanna that the public API does not offer. ``import m``
    may name a public module or a game's package (read, as the adding-a-game guide does)."""
    lines = [line for line in code.splitlines()  # no magics, no MyST cell options
             if not line.lstrip().startswith(("%", "!")) and not line.startswith(":")]
    wrong = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.Import):
            wrong += [alias.name for alias in node.names if alias.name.split(".")[0] == "savanna"
                      and alias.name not in public and alias.name not in games]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "savanna":
            wrong += [f"{node.module}.{alias.name}" for alias in node.names
                      if alias.name not in public.get(node.module, ())]
    return wrong


def _games():
    from savanna.registry import GAMES

    return {entry.package for entry in GAMES.values()}


def test_every_example_imports_only_the_public_api():
    games = _games()
    wrong = [f"{path.relative_to(ROOT)}: {name}" for path, code in code_cells()
             for name in private_imports(code, PUBLIC, games)]
    assert wrong == []


def test_a_deep_import_is_caught():
    public = {"savanna.agents": {"analyse"}, "savanna": {"make_game"}}
    code = ("import numpy\nimport savanna, savanna.zebres\nfrom savanna import make_game\n"
            "from savanna.agents.play.analysis import analyse\nimport savanna.agents.play.mcts\n"
            "from savanna.agents import Tree\n")
    assert private_imports(code, public, {"savanna.zebres"}) == [
        "savanna.agents.play.analysis.analyse", "savanna.agents.play.mcts", "savanna.agents.Tree"]


def test_the_page_parser_reads_both_table_shapes():
    text = ("## `pkg`\n\n| name | what |\n|---|---|\n| `a` | x |\n\n## Other\n\n"
            "| module | name | what |\n|---|---|---|\n| `pkg.m` | `b` | y |\n")
    assert listed(text) == {"pkg": {"a"}, "pkg.m": {"b"}}
