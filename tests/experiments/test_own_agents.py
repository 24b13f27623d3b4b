"""An agent of one's own on the command line, by its import path: a file
(``./my_agent.py:MyAgent``) or a module on the import path (``mypkg.agents:MyAgent``), with
its settings after a further colon, seated like a built-in agent. Results and records name it
by the path that loads it (a file by its absolute path) and its settings: replay and review
show that name, the ladder rebuilds the agent from it in any folder."""
import importlib
import json
import sys

import pytest

from savanna import make_game
from savanna.agents import make_agent, play_match
from savanna.agents.arena import ladder as ladder_module
from savanna.agents.play.base import describe
from savanna.agents.play.registry import parse_spec, split_spec
from savanna.cli.main import main
from savanna.records import read_record

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


MINIMAL = """
import numpy as np


class Highest:
    \"\"\"No name, no settings(): both come from the class. Plays its ``depth``-th highest legal
    action (its lowest where it has fewer), so that a lost setting changes its moves.\"\"\"

    def __init__(self, depth=1):
        self.depth = depth

    def act(self, game, states, rng):
        legal = map(np.flatnonzero, game.legal_mask(states))
        return np.array([moves[max(len(moves) - self.depth, 0)] for moves in legal])
"""

# the minimal agent by a file and by a module, with a setting that is not its default
MINIMAL_SPECS = ["./minimal.py:Highest:depth=3", "mypkg.minimal:Highest:depth=3"]
MODULES = ("mypkg.agents", "mypkg.minimal", "mypkg", "my_agent", "minimal", "deeper")


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder with ``my_agent.py``, ``minimal.py`` and ``mypkg/`` (``agents.py``,
    ``minimal.py``), the current one, on the path."""
    (tmp_path / "my_agent.py").write_text(MY_AGENT)
    (tmp_path / "minimal.py").write_text(MINIMAL)
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "agents.py").write_text(MY_AGENT)
    (tmp_path / "mypkg" / "minimal.py").write_text(MINIMAL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    forget_modules()


@pytest.fixture
def elsewhere(tmp_path_factory):
    """Another folder, from which a path relative to ``here`` names nothing."""
    return tmp_path_factory.mktemp("elsewhere")


def forget_modules():
    """Drop the test's agent modules, so that the next use imports them again (as a new
    ``savanna`` process would)."""
    for name in MODULES:
        sys.modules.pop(name, None)
    importlib.invalidate_caches()


def recorded_spec(here, spec):
    """The spec that results and records name ``spec`` by: a file by its absolute path."""
    return f"{here.resolve()}/{spec[2:]}" if spec.startswith("./") else spec


def play_recorded(here, spec, capsys):
    """The records file of a two-game ``savanna match`` of ``spec`` against random."""
    assert main(["match", "zebres", spec, "random", "--games", "2", "--workers", "1",
                 "--out", "m"]) == 0
    capsys.readouterr()
    return here / "m" / "records.jsonl"


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


@pytest.mark.parametrize("spec", ["mypkg.minimal:Highest:depth=2", "./minimal.py:Highest:depth=2"])
def test_records_name_an_agent_by_its_import_path_and_settings_and_rebuild_it(here, spec):
    """An agent without ``name`` or ``settings()`` plays; a recorded match names it by the
    path that loads it and its settings (read back from the constructor's parameters), which
    ``make_agent`` turns back into the agent."""
    game = make_game("zebres")
    result = play_match(game, [make_agent(spec), make_agent("random")], games=2,
                        workers=1, progress=False, record=True)
    assert result.agents[0] == recorded_spec(here, spec) == result.records[0].agents[0]
    again = make_agent(result.records[0].agents[0])
    assert type(again).__name__ == "Highest" and again.depth == 2
    assert result.settings[0] == {"depth": 2}


@pytest.mark.parametrize("spec", MINIMAL_SPECS)
def test_replay_shows_an_agent_of_ones_own_by_its_recorded_spec_playing_its_own_moves(
        here, elsewhere, spec, monkeypatch, capsys):
    """Replay does not run agents: it names each move's seat by the recorded spec, which
    rebuilds, from another folder, an agent that plays every move the record holds."""
    records = play_recorded(here, spec, capsys)
    monkeypatch.chdir(elsewhere)
    forget_modules()
    assert main(["replay", str(records), "--game", "1", "--all"]) == 0
    shown = capsys.readouterr().out
    record = read_record(records, 1)  # the second game: seats rotated
    seat = record.agents.index(recorded_spec(here, spec))
    game, again = record.game(), make_agent(record.agents[seat])
    states = record.states(game)
    mine = [(k, move) for k, move in enumerate(record.moves) if move.get("player") == seat]
    assert len(mine) > 1
    for k, move in mine:
        assert f"seat {seat} ({record.agents[seat]}): {move['move']}" in shown
        assert again.act(game, states[k: k + 1], None)[0] == move["action"]


DEEPER = """
from savanna.agents.play.mcts import MCTSAgent


class Deeper(MCTSAgent):
    \"\"\"A search of one's own: MCTS under another name.\"\"\"
"""


def test_review_names_the_seat_of_an_agent_of_ones_own_and_takes_a_search_of_ones_own(
        here, elsewhere, monkeypatch, capsys):
    """Review does not run the recorded agents either: it names each seat by its recorded
    spec. Its reviewer may be a search of one's own by its import path (reviewing as the
    search it extends), not an agent that does not search."""
    (here / "deeper.py").write_text(DEEPER)
    records = play_recorded(here, MINIMAL_SPECS[0], capsys)
    monkeypatch.chdir(elsewhere)
    forget_modules()
    reviews = {}
    for reviewer in (f"{here}/deeper.py:Deeper:sims=8", "mcts:sims=8"):
        assert main(["review", str(records), "--agent", reviewer, "--no-progress"]) == 0
        reviews[reviewer], summary = capsys.readouterr()
        assert f"reviewed by {describe(make_agent(reviewer))};" in summary
        assert f"player 0 ({recorded_spec(here, MINIMAL_SPECS[0])}): " in summary
    assert len(set(reviews.values())) == 1  # the same analysis
    assert main(["review", str(records), "--agent", f"{here}/minimal.py:Highest"]) == 2
    error = capsys.readouterr().err
    assert "analysis needs a search agent (mcts, ppo-mcts or az), got" in error
    assert len(error.splitlines()) == 1


def add_to_ladder(agent, ladder, capsys):
    """``savanna ladder add AGENT --file LADDER``: its exit status and standard error."""
    code = main(["ladder", "add", agent, "--file", str(ladder), "--games", "2", "--workers",
                 "1", "--no-progress"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("spec", MINIMAL_SPECS)
def test_the_ladder_rebuilds_an_agent_of_ones_own_for_a_later_entrant_from_elsewhere(
        here, elsewhere, spec, monkeypatch, capsys):
    """The ladder file holds the agent's recorded spec; a later ``ladder add`` run in another
    folder rebuilds the agent from it, with its setting, to play the new entrant."""
    ladder = here / "ladder.json"
    assert add_to_ladder(spec, ladder, capsys)[0] == 0
    assert json.loads(ladder.read_text())["agents"] == ["random", recorded_spec(here, spec)]
    monkeypatch.chdir(elsewhere)
    forget_modules()
    seated = []

    def spy(game, agents, *args):
        seated.extend(agents)
        return play_match(game, agents, *args)

    monkeypatch.setattr(ladder_module, "play_match", spy)
    assert add_to_ladder("greedy", ladder, capsys)[0] == 0
    rebuilt = [agent for agent in seated if type(agent).__name__ == "Highest"]
    assert rebuilt and all(agent.depth == 3 for agent in rebuilt)
    assert json.loads(ladder.read_text())["agents"][:2] == ["random", recorded_spec(here, spec)]


@pytest.mark.parametrize("spec, gone, missing", [
    (MINIMAL_SPECS[0], "minimal.py", "no file {here}/minimal.py"),
    (MINIMAL_SPECS[1], "mypkg/minimal.py", "No module named 'mypkg.minimal'"),
])
def test_a_ladder_whose_agent_is_gone_says_which_and_what_to_do(here, spec, gone, missing,
                                                                 capsys):
    ladder = here / "ladder.json"
    assert add_to_ladder(spec, ladder, capsys)[0] == 0
    before = ladder.read_bytes()
    (here / gone).unlink()
    forget_modules()
    code, error = add_to_ladder("greedy", ladder, capsys)
    assert code == 2 and len(error.splitlines()) == 1
    assert "the ladder's agent" in error and missing.format(here=here.resolve()) in error
    assert "put back the file or module it loads" in error
    assert ladder.read_bytes() == before
