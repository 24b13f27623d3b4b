"""The layers of the project (STYLE.md): no import cycle between its modules or its packages,
arrows that point down, and an ``import savanna`` that loads nothing above the core. One import
root: the folders of the games, agents/, the applications (cli/, board/, studies/,
conformance/) and benchmarks/ import as savanna.zebres, ..., savanna.agents, savanna.cli, ...,
names no other project or a user's own ``agents.py`` can take; the graph holds string-named
modules (``"savanna.zebres.game:ZebresGame"``) too."""
import argparse
import ast
import importlib.util
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

from savanna.registry import GAMES as REGISTERED

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
# the shipped games: name -> package, as their entry points declare them (savanna/plugins.py)
SHIPPED = PYPROJECT["project"]["entry-points"]["savanna.games"]
# each registered game's package: the shipped ones and any plug-in's (tests/test_new_game.py)
GAMES = tuple(entry.package for entry in REGISTERED.values())
# package -> the project packages it may import: applications -> agents -> savanna <- games.
# The applications each own their vertical: the command line (commands, run loop, run folders)
# calls the others; the board, the studies and the conformance suite stand on the agents; the
# benchmarks measure games, agents and the board. Every package is a row: none is exempt.
APPLICATIONS = ("savanna.cli", "savanna.board", "savanna.studies", "savanna.conformance",
                "savanna.benchmarks")
BELOW = {"savanna.agents", "savanna", "savanna.interop", *GAMES}  # every application's floor
ALLOWED = {
    "savanna": set(),
    **{game: {"savanna"} for game in GAMES},
    "savanna.agents": {"savanna"},
    "savanna.cli": {*APPLICATIONS, *BELOW} - {"savanna.cli"},
    "savanna.board": BELOW,
    "savanna.studies": BELOW,
    "savanna.conformance": BELOW,
    "savanna.benchmarks": {*BELOW, "savanna.board"},  # the board's first move, timed in-process
    "savanna.interop": {"savanna"},  # the adapters: in the core's folder, of the core's layer
}
# The old names of what moved, kept for one release: each imports only what took its place.
MOVED = {"savanna.experiments": {"savanna.cli", "savanna.board", "savanna.studies"},
         "savanna.agents.study": {"savanna.studies"},
         "savanna.benchmarks.connect_four": {"savanna.connect_four"}}
ALLOWED.update({old: {*new, "savanna"} for old, new in MOVED.items()})
# the folder of each top-level package: savanna/ for the core, the rest as pyproject.toml
# installs them (a game may sit inside one: savanna.connect_four)
FOLDERS = {"savanna": "savanna", **SETUPTOOLS["package-dir"]}
# the names before one root: the folders', and savanna_ + a folder for three of them
OLD_NAMES = {*FOLDERS.values(), *(f"savanna_{folder}" for folder in
                                  ("agents", "experiments", "benchmarks"))} - {"savanna"}


def folder(package):
    """The folder of ``package`` in the checkout (``connect_four``)."""
    top = max((p for p in FOLDERS if package == p or package.startswith(p + ".")), key=len)
    return ROOT / FOLDERS[top] / Path(*package.removeprefix(top).split(".")[1:])


def layer(module):
    """The package of ``ALLOWED`` that ``module`` belongs to (the longest prefix)."""
    return max((p for p in ALLOWED if module == p or module.startswith(p + ".")), key=len)


def modules():
    """Every module of the project's packages: dotted name -> path."""
    found = {}
    for package, folder in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = (package, *path.relative_to(ROOT / folder).with_suffix("").parts)
            found[".".join(parts).removesuffix(".__init__")] = path
    return found


def imported_names(path):
    """The dotted names of every import in ``path``'s code, and of every string that names a
    project module by its name or an old one (``"savanna.zebres.game:ZebresGame"``, or the
    same without ``savanna.``: registries, importorskip, code run in a subprocess)."""
    mods = modules()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value.partition(":")[0]
            spellings = {name, f"savanna.{name}", name.replace("savanna_", "savanna.", 1)}
            if "." in name and spellings & set(mods):
                yield name


def string_entries(path):
    """The modules that ``path`` names in strings (``"module:attr"`` or a module's name)."""
    mods = modules()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.partition(":")[0] in mods:
                yield node.value.partition(":")[0]


def import_graph(strings=True):
    """module -> the project modules it imports anywhere in its code (lazy imports too) and,
    with ``strings``, those it names in a string. ``from pkg import sub`` points at the
    submodule ``pkg.sub``, not at ``pkg``."""
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
        if strings:
            graph[name].update(t for t in string_entries(path) if t != name)
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
    """Through imports; a module named in a string is imported when called, not at import
    (``savanna`` names ``savanna.env``, which imports from ``savanna``)."""
    assert cycles(import_graph(strings=False)) == []


def test_no_import_cycle_between_packages_and_arrows_point_down():
    """The core names no game, not even in a string: the games join through their entry
    points (pyproject.toml)."""
    wrong = sorted((a, b) for a, targets in import_graph().items() for b in targets
                   if layer(a) != layer(b) and layer(b) not in ALLOWED[layer(a)])
    assert wrong == []


def test_the_core_folder_holds_only_the_core():
    """Everything in savanna/ is of the core's layer (its adapters too): nothing there imports
    the agents or an application, and no application sits in the core's folder."""
    inside = [name for name, path in modules().items() if path.is_relative_to(ROOT / "savanna")]
    assert {layer(name) for name in inside} == {"savanna", "savanna.interop"}
    assert all(ALLOWED[layer(name)] <= {"savanna"} for name in inside)


def test_every_package_has_a_row():
    """A new top-level package gets its row in ``ALLOWED`` (its arrows) first."""
    assert set(FOLDERS) <= set(ALLOWED)


def test_the_old_names_hold_nothing_but_their_new_places():
    """The packages kept for their old names import nothing but the packages that took their
    places (``savanna.lazy.moved_modules``), and nothing of the project imports them."""
    graph = import_graph()
    for old, new in MOVED.items():
        assert {layer(b) for a in graph if layer(a) == old for b in graph[a]} <= {*new, "savanna"}
    users = sorted(a for a, targets in graph.items() for b in targets
                   if layer(b) in MOVED and layer(a) != layer(b))
    assert users == []


# agents/ in rooms by job (STYLE.md), arrows one way: a room may import the rooms listed and the
# floor (the modules of savanna.agents itself: settings, worker processes, Ray, tables), which
# imports no room; the package's own __init__ is the facade that gathers the public names.
# Playing a model never loads a trainer: play-time agents know models, not training.
AGENTS = "savanna.agents"
ROOMS = {
    f"{AGENTS}.models": set(),
    f"{AGENTS}.play": {f"{AGENTS}.models"},
    f"{AGENTS}.arena": {f"{AGENTS}.play"},
    f"{AGENTS}.training": {f"{AGENTS}.play", f"{AGENTS}.models"},
}


def room(module):
    """The room of ``savanna.agents`` that ``module`` is in; ``AGENTS`` for the floor."""
    return next((r for r in ROOMS if module == r or module.startswith(r + ".")), AGENTS)


def wrong_way_arrows(graph):
    """The imports (``a``, ``b``) between modules of savanna.agents that point the wrong way."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if a != AGENTS and layer(a) == layer(b) == AGENTS and room(a) != room(b)
                  and room(b) not in ROOMS.get(room(a), set()) | {AGENTS})


def test_the_rooms_of_agents_import_one_way():
    assert wrong_way_arrows(import_graph()) == []


def test_a_wrong_way_arrow_between_rooms_is_found():
    """A trainer imported by a play-time agent or the arena, any room by the floor, and the
    models reaching up: each is reported; the facade and arrows inside a room are not."""
    graph = {f"{AGENTS}.play.mcts": {f"{AGENTS}.training.ppo", f"{AGENTS}.play.base",
                                     f"{AGENTS}.models.networks", f"{AGENTS}.settings"},
             f"{AGENTS}.arena.ladder": {f"{AGENTS}.training.fit", f"{AGENTS}.play.registry"},
             f"{AGENTS}.settings": {f"{AGENTS}.play.base"},
             f"{AGENTS}.models.checkpoint": {f"{AGENTS}.play.base"},
             f"{AGENTS}.training.ppo": {f"{AGENTS}.play.greedy", f"{AGENTS}.models.networks"},
             AGENTS: {f"{AGENTS}.arena.matches"}}
    assert wrong_way_arrows(graph) == [
        (f"{AGENTS}.arena.ladder", f"{AGENTS}.training.fit"),
        (f"{AGENTS}.models.checkpoint", f"{AGENTS}.play.base"),
        (f"{AGENTS}.play.mcts", f"{AGENTS}.training.ppo"),
        (f"{AGENTS}.settings", f"{AGENTS}.play.base")]


def test_every_agents_module_is_in_a_room_or_on_the_floor():
    """A new subpackage of agents/ gets its place in ``ROOMS`` (and its arrows) first."""
    packages = {m.rsplit(".", 1)[0] for m in modules()
                if m.startswith(AGENTS + ".") and layer(m) == AGENTS}
    assert {p for p in packages if p != AGENTS and room(p) == AGENTS} == set()


def test_the_registry_strings_are_seen_and_name_self_contained_plug_ins():
    """What loading a shipped game's declaration or its Game class imports stays in the core
    and the game's package."""
    assert import_graph()["savanna.zebres"] >= {"savanna.zebres.game"}  # strings read
    graph = import_graph(strings=False)
    entry_points = {REGISTERED[name].entry_point.partition(":")[0] for name in SHIPPED}
    assert all(module in graph for module in entry_points)
    for plug_in in set(SHIPPED.values()) | entry_points:
        reached, todo = set(), [plug_in]
        while todo:
            for target in graph[todo.pop()] - reached:
                reached.add(target)
                todo.append(target)
        assert {layer(m) for m in reached} <= {"savanna", layer(plug_in)}, plug_in


def test_nothing_imports_a_module_by_a_folder_or_old_name():
    """From a checkout's root ``import agents`` or ``import zebres`` would still work and load
    a second copy of the same files under another name."""
    files = [*modules().values(), *ROOT.glob("tests/**/*.py"), *ROOT.glob("docs/**/*.py")]
    wrong = sorted(f"{path.relative_to(ROOT)}: {name}" for path in files
                   for name in imported_names(path) if name.split(".")[0] in OLD_NAMES)
    assert wrong == []


def test_one_import_root_and_no_symlinks():
    """Every package installs under ``savanna``; no file of the checkout has a second name."""
    assert all(p == "savanna" or p.startswith("savanna.") for p in SETUPTOOLS["packages"])
    assert SETUPTOOLS["package-dir"] == {package: package.removeprefix("savanna.")
                                         for package in ALLOWED if package.count(".") == 1
                                         and package != "savanna.interop"}  # in savanna/
    tracked = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    links = [line.split("\t")[1] for line in tracked.splitlines() if line.startswith("120000")]
    assert links == []


def test_the_installed_packages_are_every_package_of_the_checkout():
    found = {".".join((package, *init.parent.relative_to(ROOT / folder).parts))
             for package, folder in FOLDERS.items()
             for init in (ROOT / folder).glob("**/__init__.py")}
    assert sorted(SETUPTOOLS["packages"]) == sorted(found)


def test_every_shipped_game_registers_from_the_package_its_entry_point_names():
    """Each entry point of ``savanna.games`` in pyproject.toml names the package that
    registers the game of that name, and pyproject.toml installs each (setuptools reads its
    lists literally: a new game adds its package there)."""
    assert {name: REGISTERED[name].package for name in SHIPPED if name in REGISTERED} == SHIPPED
    assert set(SHIPPED.values()) <= set(SETUPTOOLS["packages"])
    assert all((folder(game) / "__init__.py").is_file() for game in SHIPPED.values())


def test_a_users_own_modules_do_not_shadow_ours(tmp_path):
    for name in OLD_NAMES:
        (tmp_path / f"{name}.py").write_text("raise ImportError('the user\'s own file')\n")
    code = ("from savanna.agents import make_agent, play_match; from savanna import make_game; "
            "import savanna.cli.main, savanna.benchmarks.report; "
            "from savanna.agents.play.az_agent import shipped_baselines; shipped_baselines(); "
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


# Every game the same files, each with one job (STYLE.md, "Layout"; docs/guides/adding-a-game.md
# says what each holds): the required ones, and those a small game may fold into another.
REQUIRED_MODULES = {"__init__", "_kernels", "reference", "game", "notation", "twin"}
OPTIONAL_MODULES = {"spec", "_observe", "_validity", "render"}
MAX_LINES = 800


def test_the_references_and_notations_load_no_numba():
    """``reference.py`` is the oracle: plain Python, independent of the kernels; the
    declarations, the declared facts, the notations and the pictures need no kernels either."""
    pure = [*GAMES] + sorted(f"{game}.{module}" for game in GAMES
                             for module in ("reference", "notation", "spec", "render")
                             if (game_folder(game) / f"{module}.py").is_file())
    code = (f"import sys, {', '.join(pure)}; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'torch'}) + "
            "sorted(m for m in sys.modules if m.endswith('_kernels')))")
    assert printed_by(code) == "[]"


def game_folder(package):
    """The folder a registered game's package imports from (a plug-in's too)."""
    return Path(importlib.util.find_spec(package).submodule_search_locations[0])


def test_every_game_package_holds_the_required_modules_and_no_others():
    found = {game: {path.stem for path in game_folder(game).glob("*.py")} for game in GAMES}
    wrong = [f"{game}: missing {sorted(REQUIRED_MODULES - modules)}, unknown "
             f"{sorted(modules - REQUIRED_MODULES - OPTIONAL_MODULES)}"
             + (" (move twin.py into the game's package, beside reference.py)"
                if "twin" not in modules else "")
             for game, modules in found.items()
             if not REQUIRED_MODULES <= modules <= REQUIRED_MODULES | OPTIONAL_MODULES]
    assert not wrong, "; ".join(wrong)
    assert not [path for game in GAMES for path in game_folder(game).iterdir()
                if path.is_dir() and path.name != "__pycache__"]


def test_no_module_is_longer_than_800_lines():
    lengths = {path.relative_to(ROOT): len(path.read_text().splitlines())
               for path in modules().values()}
    assert {path: n for path, n in lengths.items() if n > MAX_LINES} == {}


def test_import_savanna_loads_the_declarations_and_nothing_else_above_the_core():
    """The games' packages (their registrations) and their pure-Python ``spec`` modules; no
    game module, no numba, no agent."""
    above = sorted({"numba", "torch", "ray", *(p for p in ALLOWED if p != "savanna"),
                    *OLD_NAMES})
    code = (f"import sys, savanna; above = {above!r}; "
            "print(sorted(m for m in sys.modules "
            "if any(m == a or m.startswith(a + '.') for a in above)))")
    declarations = {*GAMES, *(f"{game}.spec" for game in GAMES)}
    assert set(ast.literal_eval(printed_by(code))) <= declarations


def test_the_agents_and_the_command_line_load_ray_only_when_asked():
    """Ray is an optional extra: the arena, the trainers and ``savanna`` import it lazily."""
    code = ("import sys, savanna.agents, savanna.agents.arena.matches, "
            "savanna.agents.distributed, savanna.agents.training.alphazero, "
            "savanna.cli.main, savanna.cli.sweep_command, savanna.cli.train_az; "
            "print('ray' in sys.modules)")
    assert printed_by(code) == "False"


def test_playing_a_model_loads_no_trainer(tmp_path):
    """``az:baseline`` and ``ppo:<run>`` load and play a match with models and play-time
    agents only: no module of ``savanna.agents.training`` (nor the command line) is imported."""
    from savanna.agents.models.ppo_config import PPOConfig
    from savanna.agents.training.ppo import Trainer

    path = tmp_path / "best.pt"
    Trainer(PPOConfig(game="zebres", num_envs=8, rollout_len=4, minibatches=1,
                      hidden=(16, 16))).save(path, full=False)
    code = ("import sys; from savanna import make_game; "
            "from savanna.agents import make_agent, play_match; "
            f"agents = [make_agent('az:baseline,sims=4'), make_agent('ppo:{path}')]; "
            "r = play_match(make_game('zebres'), agents, games=2, workers=1, progress=False); "
            "print(r.games, sorted(m for m in sys.modules if m.startswith("
            "('savanna.agents.training', 'savanna.cli'))))")
    assert printed_by(code) == "2 []"


def command_lines(parser, path=()):
    """Every command line with a help of its own: ``()``, ``("play",)``, ``("train", "ppo")``."""
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from command_lines(sub, (*path, name))


def test_every_help_of_the_command_line_loads_neither_numba_nor_torch():
    """``savanna --help`` and ``savanna COMMAND --help``, each in a fresh interpreter: the
    command line imports only the command asked for, and its flags need no kernel or network
    (a help printed in a second, on a machine without a GPU driver too)."""
    from savanna.cli.main import build_parser

    code = ("import contextlib, io, sys; from savanna.cli.main import main; "
            "out = io.StringIO(); words = sys.argv[1:]\n"
            "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit): "
            "main([*words, '--help'])\n"
            "assert 'usage: savanna' in out.getvalue(), out.getvalue()\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'torch'}))")
    paths = list(command_lines(build_parser()))
    assert len(paths) > 20 and ("train", "ppo") in paths
    runs = {path: subprocess.Popen([sys.executable, "-c", code, *path], cwd=ROOT, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for path in paths}
    answers = {" ".join(path): run.communicate() for path, run in runs.items()}
    loaded = {path: out.strip() or err[-300:] for path, (out, err) in answers.items()}
    assert {path: found for path, found in loaded.items() if found != "[]"} == {}


# One name, one job: a module's name says what it does, and no two packages use one name for
# two jobs. The games share their module names by design (every game the same files), and
# ``registry`` is one job for two kinds of thing (the games' in the core, the agents' in play/).
SAME_JOB = {"registry"}


def test_no_module_name_serves_two_jobs():
    by_name = defaultdict(set)
    for name in modules():
        package, _, stem = name.rpartition(".")
        if layer(name) not in GAMES and not stem.startswith("_") and layer(name) not in MOVED:
            by_name[stem].add(package)
    assert {stem: sorted(p) for stem, p in by_name.items() if len(p) > 1} == \
        {stem: sorted(by_name[stem]) for stem in SAME_JOB}
