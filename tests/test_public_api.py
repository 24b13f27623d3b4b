"""The public API holds: ``docs/guides/public-api.md`` lists what a notebook may import, every
name on it imports, each listed module's ``__all__`` is exactly its list, and the examples of
the docs, the README and the notebooks import nothing else."""
import ast
import importlib
import json
import re
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
# the interop adapters need their peer (the interop extra)
PEERS = {"savanna.interop.openspiel": "pyspiel", "savanna.interop.pettingzoo": "pettingzoo",
         "savanna.interop.sb3": "stable_baselines3"}


def test_the_page_lists_the_modules_a_notebook_needs():
    assert {"savanna", "savanna.agents", "savanna.experiments"} <= set(PUBLIC)
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
