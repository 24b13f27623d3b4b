"""Agent specs: parsing, typed values, and one-line errors naming what is allowed."""
import re

import pytest

from savanna.agents.play import registry
from savanna.agents.play.base import describe
from savanna.agents.play.registry import make_agent, parse_spec


class FakeAgent:
    name = "fake"

    def __init__(self, sims: int = 100, c: float = 1.4, temperature=0, alpha=None,
                 noisy: bool = False, path: str | None = None):
        if sims < 1:
            raise ValueError(f"sims must be >= 1, got {sims}")
        self.kwargs = dict(sims=sims, c=c, temperature=temperature, alpha=alpha, noisy=noisy,
                           path=path)

    def settings(self):
        return self.kwargs

    def act(self, game, states, rng):
        raise NotImplementedError


@pytest.fixture(autouse=True)
def fake_registered(monkeypatch):
    monkeypatch.setitem(registry.AGENTS, "fake", f"{__name__}:FakeAgent")
    monkeypatch.setitem(registry.AGENTS, "later", "savanna.agents.not_written_yet:LaterAgent")


def test_values_take_the_constructor_types():
    agent = make_agent("fake:sims=200,c=2,temperature=0.5,alpha=none,noisy=yes,path=a/b.pt")
    assert agent.kwargs == dict(sims=200, c=2.0, temperature=0.5, alpha=None, noisy=True,
                                path="a/b.pt")
    assert type(agent.kwargs["c"]) is float and type(agent.kwargs["sims"]) is int


def test_values_without_keys_fill_the_parameters_in_order():
    assert make_agent("fake:300,0.5").kwargs["sims"] == 300
    assert make_agent("fake:300,0.5").kwargs["c"] == 0.5


def test_command_line_overrides_replace_the_spec():
    assert make_agent("fake:sims=10", sims=20).kwargs["sims"] == 20


def test_a_spec_rebuilds_the_agent_it_describes():
    agent = make_agent("fake:sims=7,noisy=true")
    assert make_agent(describe(agent)).kwargs == agent.kwargs
    assert describe(make_agent("greedy:chance_depth=3")) == "greedy:chance_depth=3"


@pytest.mark.parametrize("spec, message", [
    ("nope", "unknown agent 'nope'; available: az, az-policy, fake, greedy, later, mcts, ppo, "
             "ppo-mcts, random"),
    ("fake:sims=abc", "agent 'fake': bad value 'abc' for sims (expected int)"),
    ("fake:noisy=maybe", "bad value 'maybe' for noisy (expected bool)"),
    ("fake:depth=3", "agent 'fake' has no setting 'depth'; settings: sims, c, temperature, "
                     "alpha, noisy, path"),
    ("fake:sims=0", "agent 'fake': sims must be >= 1, got 0"),
    ("fake:sims=1,,c=2", "malformed agent spec 'fake:sims=1,,c=2': empty setting"),
    ("fake:=3", "malformed agent spec 'fake:=3'"),
    ("fake:c=1,5", "value '5' without a key"),
    ("fake:sims=1,sims=2", "sets 'sims' twice"),
    ("fake:1,2,3,4,5,6,7", "takes at most 6 settings"),
    ("", "agent spec must be 'name[:key=value,...]'"),
    ("later:runs/x/best.pt", "agent 'later' is not available (ModuleNotFoundError: No "
                             "module named"),
])
def test_bad_specs_raise_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        make_agent(spec)
    assert "\n" not in str(err.value)


def test_an_override_of_an_unknown_setting_is_refused():
    with pytest.raises(ValueError, match="agent 'random' has no setting 'sims'; settings: none"):
        make_agent("random", sims=100)


@pytest.mark.parametrize("spec, message", [
    ("mcts:sims=-1", "agent 'mcts': sims must be an int >= 1, got -1"),
    ("mcts:sims=1.5", "agent 'mcts': bad value '1.5' for sims (expected int)"),
    ("mcts:temperature=inf", "agent 'mcts': bad value 'inf' for temperature (expected float)"),
    ("mcts:c=nan", "agent 'mcts': bad value 'nan' for c (expected float)"),
    ("mcts:sims=５", "agent 'mcts': bad value '５' for sims (expected int)"),
    ("mcts:c=1.５", "agent 'mcts': bad value '1.５' for c (expected float)"),
    ("mcts:sims=100000,max_nodes=1000", "sims=100000 cannot fit in a tree of max_nodes=1000"),
    ("mcts:bogus=1", "agent 'mcts' has no setting 'bogus'"),
    ("mcts:" + "x" * 500 + "=1", "agent 'mcts' has no setting 'xxxxxxxx"),
    ("mcts:sims=" + "9" * 500, "agent 'mcts': bad value '99999"),
    ("mcts:c=" + "9" * 500, "agent 'mcts': bad value '99999"),
])
def test_bad_mcts_settings_raise_short_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        make_agent(spec)
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


def test_mcts_sims_must_be_an_integer():
    with pytest.raises(ValueError, match=re.escape(
            "agent 'mcts': bad value 'abc' for sims (expected int)")):
        make_agent("mcts:sims=abc")


def test_parse_spec_keeps_text_values():
    assert parse_spec("mcts:sims=1000,c=1.4") == ("mcts", [], {"sims": "1000", "c": "1.4"})
