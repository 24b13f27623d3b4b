"""An agent of one's own that fails is one line naming it and its own message, exit status 2 on
the command line and a 400 from the board, whether it fails when built or when asked to move;
the board takes an offered agent by any spelling its records use."""
import sys

import pytest
from starlette.testclient import TestClient

from savanna.board.limits import Limits
from savanna.board.refusals import Refused
from savanna.board.seating import check_agent
from savanna.board.server import create_app
from savanna.cli.main import main

BROKEN = '''
class Broken:
    """Fails when built, as a plug-in missing its model file would."""

    def __init__(self):
        raise RuntimeError("no weights in ./models")

    def act(self, game, states, rng):
        return game.legal_mask(states).argmax(axis=1)


class Flaky:
    """Fails when asked to move."""

    def act(self, game, states, rng):
        raise KeyError("lost its table")


class FirstMove:
    def act(self, game, states, rng):
        return game.legal_mask(states).argmax(axis=1)


class Picky(FirstMove):
    """Fails when asked to move with fewer than 10 legal moves: in Zebres, at the second
    decision of its first turn, mid-game."""

    def act(self, game, states, rng):
        if game.legal_mask(states).sum(axis=1).min() < 10:
            raise KeyError("lost its table")
        return super().act(game, states, rng)
'''


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [*sys.path])
    (tmp_path / "broken.py").write_text(BROKEN)
    yield tmp_path
    sys.modules.pop("broken", None)


def one_line(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("argv", [
    ["match", "zebres", "./broken.py:Broken", "random", "--games", "2", "--workers", "1",
     "--out", "m"],
    ["play", "zebres", "--agent", "./broken.py:Broken"],
])
def test_an_agent_that_fails_when_built_is_one_line_and_exit_2(here, capsys, argv):
    assert main(argv) == 2
    err = one_line(capsys)
    assert "broken.py:Broken" in err and "RuntimeError: no weights in ./models" in err, err


def test_an_agent_that_fails_in_act_is_one_line_and_exit_2(here, capsys):
    assert main(["match", "zebres", "./broken.py:Flaky", "random", "--games", "2",
                 "--workers", "1", "--out", "m"]) == 2
    err = one_line(capsys)
    assert "agent 'Flaky' failed in act: KeyError: 'lost its table'" in err, err


def test_the_board_answers_an_agent_that_fails_when_built_with_a_400(here):
    with pytest.raises(Refused, match="RuntimeError: no weights in ./models"):
        check_agent("./broken.py:Broken", Limits(agents=("./broken.py:Broken",)))


def test_the_board_takes_an_offered_agent_by_its_recorded_absolute_path(here):
    limits = Limits(agents=("./broken.py:FirstMove",))
    recorded = f"{here.resolve()}/broken.py:FirstMove"
    assert check_agent(recorded, limits).label == recorded
    with pytest.raises(Refused, match="was not offered"):
        check_agent(f"{here.resolve()}/other.py:FirstMove", limits)


@pytest.mark.parametrize("spec", ["./broken.py:Flaky", "./broken.py:Picky"])
def test_the_board_answers_an_agent_that_fails_in_act_mid_game_with_a_400(here, spec):
    """The agent fails at its first search in a worker (Flaky) or at a later one (Picky), after
    the human's first move: the game waits at that move saying why in one line, a step asks
    again and gets a 400 with that line, and the table plays on (the human takes the move back
    and plays another, the agent fails again as before)."""
    line = f"agent '{spec.rpartition(':')[2]}' failed in act: KeyError: 'lost its table'"
    app = create_app(Limits(agents=(spec,), save=here), workers=1, token="tok")
    with TestClient(app, base_url="http://127.0.0.1:8000",
                    headers={"Authorization": "token tok"}) as client:
        made = client.post("/api/tables", json={"game": "zebres", "seats": ["human", spec]})
        assert made.status_code == 200, made.text
        table, seat = made.json()["id"], {"X-Seat-Key": made.json()["keys"]["0"]}
        for _ in range(2):  # the move, then the same move again after an undo
            view = client.get(f"/api/tables/{table}", headers=seat).json()
            moved = client.post(f"/api/tables/{table}/move", headers=seat, json={
                "action": view["moves"][0]["action"], "version": view["version"]})
            assert moved.status_code == 200 and moved.json()["notice"] == line, moved.text
            assert moved.json()["paused"] and moved.json()["agent_to_move"]
            played = moved.json()["version"]
            step = client.post(f"/api/tables/{table}/advance", headers=seat)
            assert step.status_code == 400 and step.json() == {"error": line}, step.text
            view = client.get(f"/api/tables/{table}", headers=seat).json()
            assert view["version"] == played and view["notice"] == line
            assert client.post(f"/api/tables/{table}/undo", headers=seat).status_code == 200
            assert client.post(f"/api/tables/{table}/pace", headers=seat,
                               json={"paused": False}).status_code == 200
