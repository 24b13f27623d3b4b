"""An agent of one's own that fails is one line naming it and its own message, exit status 2 on
the command line and a 400 from the board, whether it fails when built or when asked to move;
the board takes an offered agent by any spelling its records use."""
import sys

import pytest

from savanna.board.limits import Limits
from savanna.board.refusals import Refused
from savanna.board.seating import check_agent
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
