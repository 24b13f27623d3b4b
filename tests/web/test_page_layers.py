"""The board page's ES modules in layers (board/static), as the Python side is checked
(tests/test_architecture.py): no import cycle, and each module imports only its own layer or the
ones below it. The router (board.js) imports the views, the views import the core (core.js:
render, openTab, the address), the core imports the drawing, and everything may import the
ground (the state and API, the games' words, the push client). A module the layers do not list
fails, so that a new one is placed on purpose."""
import re
from pathlib import Path

from tests.test_architecture import cycles

STATIC = Path(__file__).resolve().parents[2] / "board" / "static"
LAYERS = [  # bottom first
    {"shared.js", "words.js", "live.js"},
    {"drawing.js"},
    {"core.js"},
    {"analyse.js", "play.js", "replay.js", "tables.js", "review.js", "retry.js"},
    {"board.js"},
]
IMPORT = re.compile(r"""^\s*import\s[^;]*?\sfrom\s+["']\./([\w.-]+)["']""", re.M | re.S)


def page_graph(folder=STATIC):
    """Module -> the modules of the page it imports."""
    return {path.name: set(IMPORT.findall(path.read_text())) for path in folder.glob("*.js")}


def level(module):
    return next(k for k, layer in enumerate(LAYERS) if module in layer)


def upward(graph):
    """The imports (a, b) from a lower layer to a higher one."""
    return sorted((a, b) for a, targets in graph.items() for b in targets if level(b) > level(a))


def test_every_module_is_in_a_layer():
    assert set(page_graph()) == set().union(*LAYERS)


def test_no_import_cycle_and_no_arrow_up():
    graph = page_graph()
    assert {"core.js", "review.js", "play.js"} <= graph["board.js"]  # the parsing finds them
    assert cycles(graph) == []
    assert upward(graph) == []


def test_an_import_circle_and_an_arrow_up_are_found(tmp_path):
    """The page as it was: the router imported every view, each view imported render back."""
    (tmp_path / "board.js").write_text('import { render } from "./play.js";\n')
    (tmp_path / "play.js").write_text('import {\n  openTab, render } from "./board.js";\n'
                                      'import { $ } from "./shared.js";\n')
    (tmp_path / "shared.js").write_text("export const $ = 1;\n")
    graph = page_graph(tmp_path)
    assert graph == {"board.js": {"play.js"}, "play.js": {"board.js", "shared.js"},
                     "shared.js": set()}
    assert cycles(graph) == [["board.js", "play.js"]]
    assert upward(graph) == [("play.js", "board.js")]
