"""The layers of the project (STYLE.md): no import cycle between its modules or its packages,
arrows that point down, and an ``import savanna`` that loads nothing above the core; the
folders agents/, experiments/ and benchmarks/ import as savanna.agents, savanna.experiments
and savanna.benchmarks, which a user's own ``agents.py`` cannot shadow."""
import ast
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("zebres", "bonobo", "banjooli")
# package -> the project packages it may import (experiments -> benchmarks -> agents -> savanna
# <- games); tests and the interop adapters may import anything.
ALLOWED = {
    "savanna": set(),
    **{game: {"savanna"} for game in GAMES},
    "savanna.agents": {"savanna"},
    "savanna.benchmarks": {"savanna.agents", "savanna", *GAMES},
    "savanna.experiments": {"savanna.benchmarks", "savanna.agents", "savanna", *GAMES},
}
FOLDERS = {"agents": "savanna.agents", "benchmarks": "savanna.benchmarks",
           "experiments": "savanna.experiments"}   # folder -> the name it imports as


def modules():
    """Every module of the project's packages: dotted name -> path."""
    found = {}
    for package in ALLOWED:
        folder = next((f for f, name in FOLDERS.items() if name == package), package)
        for path in (ROOT / folder).rglob("*.py"):
            parts = (package, *path.relative_to(ROOT / folder).with_suffix("").parts)
            found[".".join(parts).removesuffix(".__init__")] = path
    return found


def imported_names(path):
    """The dotted names of every import in ``path``'s code."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def import_graph():
    """module -> the project modules it imports anywhere in its code (lazy imports too).
    ``from pkg import sub`` points at the submodule ``pkg.sub``, not at ``pkg``."""
    mods = modules()
    graph = defaultdict(set)
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                subs = [f"{node.module}.{alias.name}" for alias in node.names]
                targets = [t for t in subs if t in mods] or [node.module]
            else:
                continue
            graph[name].update(t for t in targets if t in mods and t != name)
    return graph


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_between_modules():
    assert cycles(import_graph()) == []


def test_no_import_cycle_between_packages_and_arrows_point_down():
    wrong = sorted((a, b) for a, targets in import_graph().items() for b in targets
                   if a.split(".")[0] != b.split(".")[0]
                   and b.split(".")[0] not in ALLOWED[a.split(".")[0]]
                   and not a.startswith("savanna.interop"))
    assert wrong == []


def test_nothing_imports_a_folder_by_its_own_name():
    """From a checkout's root ``import agents`` would still work and hide a missed rename."""
    files = [*modules().values(), *ROOT.glob("tests/**/*.py")]
    wrong = sorted(f"{path.relative_to(ROOT)}: {name}" for path in files
                   for name in imported_names(path) if name.split(".")[0] in FOLDERS)
    assert wrong == []


def test_the_installed_packages_are_every_package_of_the_checkout():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {name: folder for folder, name in FOLDERS.items()}
    found = set()
    for init in ROOT.glob("*/**/__init__.py"):
        parts = init.parent.relative_to(ROOT).parts
        if parts[0] in ALLOWED or parts[0] in FOLDERS:
            found.add(".".join((FOLDERS.get(parts[0], parts[0]), *parts[1:])))
    assert sorted(config["packages"]) == sorted(found)


def test_a_users_own_agents_py_does_not_shadow_ours(tmp_path):
    for name in FOLDERS:
        (tmp_path / f"{name}.py").write_text("raise ImportError('the user\'s own file')\n")
    code = ("from savanna.agents import make_agent, play_match; from savanna import make_game; "
            "import savanna.experiments.cli, savanna.benchmarks.report; "
            "from savanna.agents.az_agent import shipped_baselines; shipped_baselines(); "
            "r = play_match(make_game('zebres'), [make_agent('random'), make_agent('greedy')], "
            "games=2, workers=1, progress=False); print(r.games)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "2"


def printed_by(code):
    """What ``code`` prints, run in a fresh interpreter from the checkout's root."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_references_and_notations_load_no_numba():
    """``reference.py`` is the oracle: plain Python, independent of the kernels; the declared
    facts, the notations and the pictures need no kernels either."""
    code = ("import sys, savanna.zebres.reference, savanna.bonobo.reference, "
            "savanna.banjooli.reference, "
            "savanna.zebres.notation, savanna.bonobo.notation, savanna.banjooli.notation, "
            "savanna.zebres.spec, savanna.bonobo.spec, savanna.banjooli.spec, "
            "savanna.zebres.render, savanna.bonobo.render, "
            "savanna.banjooli.render; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'torch'}) + "
            "sorted(m for m in sys.modules if m.endswith('_kernels')))")
    assert printed_by(code) == "[]"


# Every game the same files, each with one job (STYLE.md, "Layout").
GAME_MODULES = {"__init__", "spec", "_kernels", "_observe", "_validity", "reference", "game",
                "notation", "render"}
MAX_LINES = 800


def test_every_game_package_lists_the_same_modules():
    found = {game: {path.stem for path in (ROOT / game).glob("*.py")} for game in GAMES}
    assert found == dict.fromkeys(GAMES, GAME_MODULES)
    assert not [path for game in GAMES for path in (ROOT / game).iterdir() if path.is_dir()
                and path.name != "__pycache__"]


def test_no_module_is_longer_than_800_lines():
    lengths = {path.relative_to(ROOT): len(path.read_text().splitlines())
               for path in modules().values()}
    assert {path: n for path, n in lengths.items() if n > MAX_LINES} == {}


def test_import_savanna_loads_nothing_above_the_core():
    code = ("import sys, savanna; print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'torch', 'savanna.agents', 'savanna.experiments', 'savanna.benchmarks', 'agents', "
            "'experiments', 'benchmarks', 'zebres', 'bonobo', 'banjooli', 'ray'}))")
    assert printed_by(code) == "[]"


def test_the_agents_and_the_command_line_load_ray_only_when_asked():
    """Ray is an optional extra: the arena, the trainers and ``savanna`` import it lazily."""
    code = ("import sys, savanna.agents, savanna.agents.arena, savanna.agents.distributed, "
            "savanna.agents.alphazero, savanna.experiments.cli, savanna.experiments.sweep, "
            "savanna.experiments.train_az; "
            "print('ray' in sys.modules)")
    assert printed_by(code) == "False"
