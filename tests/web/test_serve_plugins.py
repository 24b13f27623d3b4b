"""An agent named by an import path runs code: ``savanna serve`` seats only those offered when
it started (``--agent``), and a request naming any other imports nothing."""
import sys

import pytest
from starlette.testclient import TestClient

from savanna.board import workers
from savanna.board.network import ReadyServer
from savanna.board.refusals import Refused
from savanna.board.seating import check_agent
from savanna.board.tables import Limits
from savanna.cli.main import main

AGENT = '''
from pathlib import Path
Path(__file__).with_suffix(".imported").write_text("ran")

class FirstMove:
    name = "first"
    def __init__(self, depth: int = 1):
        self.depth = depth
    def settings(self):
        return {"depth": self.depth}
    def act(self, game, states, rng):
        return game.legal_mask(states).argmax(axis=1)
'''


@pytest.fixture
def agent_file(tmp_path, monkeypatch):
    """``mine.py`` and ``other.py`` in the current folder; what importing them changes in
    ``sys`` is undone afterwards."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [*sys.path])
    (tmp_path / "mine.py").write_text(AGENT)
    (tmp_path / "other.py").write_text(AGENT)
    yield tmp_path
    for name in ("mine", "other"):
        sys.modules.pop(name, None)


def test_a_request_never_imports_an_agent_that_was_not_offered(agent_file):
    limits = Limits(agents=("./mine.py:FirstMove",))
    for spec in ("./other.py:FirstMove", "other.py:FirstMove:depth=2",
                 f"{agent_file}/other.py:FirstMove", "os.path:join", "subprocess:Popen"):
        with pytest.raises(Refused, match="was not offered by this server|unknown agent"):
            check_agent(spec, limits)
    assert not (agent_file / "other.imported").exists()
    spec = check_agent("./mine.py:FirstMove:depth=3", limits).spec
    assert workers.agent(spec).depth == 3  # as a search worker builds it
    assert workers.agent(check_agent("random", Limits()).spec).name == "random"


def test_serve_offers_the_agents_given_with_agent_and_the_page_seats_them(agent_file,
                                                                          monkeypatch):
    calls = {}
    monkeypatch.setattr(ReadyServer, "run",
                        lambda server, sockets: calls.update(app=server.config.app))
    assert main(["serve", "--token", "tok", "--agent", "./mine.py:FirstMove"]) == 0
    assert calls["app"].state.limits.agents == ("./mine.py:FirstMove",)
    with TestClient(calls["app"], base_url="http://127.0.0.1:8000",
                    headers={"Authorization": "token tok"}) as client:
        assert "./mine.py:FirstMove" in client.get("/api/info").json()["agents"]
        r = client.post("/api/tables", json={"game": "zebres",
                                             "seats": ["human", "./mine.py:FirstMove:depth=2"]})
        assert r.status_code == 200, r.text
        view = r.json()
        r = client.post(f"/api/tables/{view['id']}/move", json={
            "action": view["moves"][0]["action"], "version": view["version"]},
            headers={"X-Seat-Key": view["keys"]["0"]})
        assert r.status_code == 200 and r.json()["notice"] is None, r.text
        assert r.json()["version"] >= 2  # the offered agent replied, from a search worker
        r = client.post("/api/tables", json={"game": "zebres",
                                             "seats": ["human", "./other.py:FirstMove"]})
        assert r.status_code == 400 and "not offered" in r.json()["error"]
    assert not (agent_file / "other.imported").exists()


@pytest.mark.parametrize("offered, message", [
    ("mcts", "give a class by its import path"),
    ("./mine.py:FirstMove:depth=2", "give a class by its import path"),
    ("./missing.py:FirstMove", "cannot be imported: ImportError: no file missing.py"),
    ("./mine.py:Nothing", "cannot be imported: AttributeError"),
])
def test_an_offered_agent_that_cannot_be_seated_stops_serve_before_it_starts(
        agent_file, monkeypatch, capsys, offered, message):
    monkeypatch.setattr(ReadyServer, "run", lambda server, sockets: pytest.fail("served"))
    assert main(["serve", "--agent", offered]) != 0
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_broken_agent_plug_in_is_a_400_and_the_others_still_seat(agent_file, monkeypatch):
    """A registered agent whose module fails to import is refused with a 4xx and one line;
    the other agents are still listed and seated."""
    from savanna.agents.play import registry

    (agent_file / "bugged.py").write_text("raise RuntimeError('a bug in the plug-in')\n")
    monkeypatch.syspath_prepend(str(agent_file))
    monkeypatch.setitem(registry.AGENTS, "bugged", "bugged:Agent")
    with pytest.raises(Refused) as err:
        check_agent("bugged", Limits())
    assert err.value.kind == "invalid" and "\n" not in str(err.value)
    assert str(err.value) == ("agent 'bugged' is not available (RuntimeError: a bug in the "
                              "plug-in)")
    assert check_agent("random", Limits()).spec == "random"
    sys.modules.pop("bugged", None)
