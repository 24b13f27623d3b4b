"""An agent of one's own on the command line, by its import path: a file
(``./my_agent.py:MyAgent``) or a module on the import path (``mypkg.agents:MyAgent``), with
its settings after a further colon, seated like a built-in agent."""
import json
import sys

import pytest

from savanna import make_game
from savanna.agents import make_agent, play_match
from savanna.agents.play.registry import parse_spec, split_spec
from savanna.experiments.cli import main

MY_AGENT = '''
import numpy as np


class MyAgent:
    """Plays the highest legal action; ``depth`` is only there to be set."""

    name = "mine"

    def __init__(self, depth: int = 1):
        self.depth = depth

    def settings(self):
        return {"depth": self.depth}

    def act(self, game, states, rng):
        mask = game.legal_mask(states)
        return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
'''


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder with ``my_agent.py`` and ``mypkg/agents.py``, the current one, on the path."""
    (tmp_path / "my_agent.py").write_text(MY_AGENT)
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "agents.py").write_text(MY_AGENT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("mypkg.agents", "mypkg", "my_agent"):
        sys.modules.pop(name, None)


def test_savanna_match_seats_an_agent_from_a_file(here, capsys):
    assert main(["match", "zebres", "./my_agent.py:MyAgent", "random", "--games", "4",
                 "--workers", "1", "--out", "m"]) == 0
    out = capsys.readouterr().out
    assert "my_agent.py:MyAgent" in out and "random" in out
    saved = json.loads((here / "m" / "match.json").read_text())
    # named by its file's absolute path, which rebuilds it from anywhere
    assert saved["games"] == 4
    assert saved["agents"] == [f"{here.resolve()}/my_agent.py:MyAgent:depth=1", "random"]


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_an_agent_from_a_file_plays_in_worker_processes(here, start_method):
    """Its folder goes first on the path, which spawned workers start with."""
    agent = make_agent("./my_agent.py:MyAgent:depth=2")
    result = play_match(make_game("zebres"), [agent, make_agent("random")], games=4,
                        workers=2, start_method=start_method, progress=False)
    assert result.games == 4


def test_a_file_named_as_a_module_imported_already_is_refused(here):
    (here / "json.py").write_text(MY_AGENT)
    with pytest.raises(ValueError, match="a module named 'json' is imported already"):
        make_agent("./json.py:MyAgent")


def test_an_import_path_takes_settings_after_a_further_colon(here, capsys):
    assert split_spec("mypkg.agents:MyAgent:depth=3") == ("mypkg.agents:MyAgent", "depth=3")
    assert split_spec("az:runs/x.pt") == ("az", "runs/x.pt")
    assert parse_spec("./my_agent.py:MyAgent:5") == ("./my_agent.py:MyAgent", ["5"], {})
    assert make_agent("mypkg.agents:MyAgent:depth=3").depth == 3
    assert make_agent(f"{here}/my_agent.py:MyAgent").depth == 1
    assert main(["match", "zebres", "mypkg.agents:MyAgent:depth=3", "greedy", "--games", "2",
                 "--workers", "1", "--out", "m"]) == 0
    assert "mypkg.agents:MyAgent:depth=3" in capsys.readouterr().out


@pytest.mark.parametrize("spec, message", [
    ("mypkg.agents:MyAgent:depth=x", "agent 'mypkg.agents:MyAgent': bad value 'x' for depth"),
    ("mypkg.agents:MyAgent:width=2", "has no setting 'width'; settings: depth"),
    ("mypkg.agents:Nobody", "cannot be imported: AttributeError"),
    ("mypkg.agents", "an agent's import path is 'module.path:Class'"),
    ("./my_agent.py:", "an agent's import path is 'module.path:Class'"),
])
def test_a_bad_import_path_is_one_line(here, spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_agent(spec)


MINIMAL = """
class Highest:
    \"\"\"No name, no settings(): both come from the class.\"\"\"

    def __init__(self, depth=1):
        self.depth = depth

    def act(self, game, states, rng):
        mask = game.legal_mask(states)
        return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
"""


@pytest.mark.parametrize("spec", ["mypkg.minimal:Highest:depth=2", "./minimal.py:Highest:depth=2"])
def test_records_name_an_agent_by_its_import_path_and_settings_and_rebuild_it(here, spec):
    """An agent without ``name`` or ``settings()`` plays; a recorded match names it by the
    path that loads it and its settings (read back from the constructor's parameters), which
    ``make_agent`` (as replay, review and the ladder call it) turns back into the agent."""
    (here / "minimal.py").write_text(MINIMAL)
    (here / "mypkg" / "minimal.py").write_text(MINIMAL)
    try:
        game = make_game("zebres")
        result = play_match(game, [make_agent(spec), make_agent("random")], games=2,
                            workers=1, progress=False, record=True)
        where = spec.rpartition(":")[0]
        if where.startswith("./"):
            where = f"{here.resolve()}/{where[2:]}"
        assert result.agents[0] == f"{where}:depth=2" == result.records[0].agents[0]
        again = make_agent(result.records[0].agents[0])
        assert type(again).__name__ == "Highest" and again.depth == 2
        assert result.settings[0] == {"depth": 2}
    finally:
        sys.modules.pop("mypkg.minimal", None)
        sys.modules.pop("minimal", None)
