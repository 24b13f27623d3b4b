"""Each game's registration (``savanna.registry.register_game`` in its package) agrees with
the game it names: the player counts it takes, the defaults of its options, its Gymnasium id,
its reference and its twin, declared and never found by guessing their names."""
import importlib
from types import SimpleNamespace

import gymnasium
import pytest

from savanna.conformance import twin
from savanna.metadata import game_options
from savanna.registry import GAMES, game_class, load_entry, make_game, register_game


@pytest.fixture(params=list(GAMES))
def entry(request):
    return GAMES[request.param]


def test_the_declared_player_counts_are_those_the_game_takes(entry):
    low, high = entry.players
    if low == high:
        assert make_game(entry.name).num_players == low
        return
    assert make_game(entry.name).num_players == low
    for n in range(low, high + 1):
        assert make_game(entry.name, num_players=n).num_players == n
    for n in (low - 1, high + 1):
        with pytest.raises(ValueError, match="num_players"):
            make_game(entry.name, num_players=n)


def test_the_declared_options_are_the_games_defaults(entry):
    options = {k: None if v == "none" else v for k, v in entry.options.items()}
    assert game_options(make_game(entry.name, **options)) == game_options(make_game(entry.name))
    assert game_class(entry.name).name == entry.name


def test_the_declared_configurations_make_games(entry):
    assert entry.configs and all(make_game(entry.name, **c).name == entry.name
                                 for c in entry.configs)


def test_the_env_id_is_registered_with_gymnasium(entry):
    spec = gymnasium.spec(entry.env_id)
    assert spec.kwargs == {"game": entry.name}
    assert spec.entry_point == "savanna.env:SavannaEnv"


@pytest.mark.parametrize("args, kwargs, match", [
    (("zebres", "x.game:Zebres"), {}, "game 'zebres' is already registered"),
    (("Toy", "x.game:Toy"), {}, "a game name is a lower-case identifier, got 'Toy'"),
    (("toy", "x.game"), {}, "entry_point must be 'package.module:GameClass', got 'x.game'"),
    (("toy", "x.game:Toy"), {"players": (3, 2)}, r"players must be \(fewest, most\)"),
    (("toy", "x.game:Toy"), {"configs": ["num_players=2"]}, "configs must be dicts"),
    (("toy", "x.game:Toy"), {"env_id": "savanna/Zebres-v0"}, "Gymnasium id 'savanna/Zebres-v0'"),
    (("toy", "x.game:Toy"), {"twin": "x/twin.py"},
     "twin must be a module name such as 'x.twin', got 'x/twin.py'"),
    (("toy", "x.game:Toy"), {"reference": 3},
     "reference must be a module name such as 'x.reference', got 3"),
])
def test_a_malformed_registration_is_refused(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        register_game(*args, **kwargs)
    assert "toy" not in GAMES


def test_the_declared_reference_and_twin_import(entry):
    assert callable(importlib.import_module(entry.reference).legal_actions)
    assert callable(importlib.import_module(entry.twin).play_lockstep)


@pytest.fixture
def scratch():
    """Registers games for one test only: those it adds are taken back (and their ids)."""
    before = set(GAMES)
    yield
    for name in set(GAMES) - before:
        del gymnasium.registry[GAMES.pop(name).env_id]


def test_a_registration_without_reference_or_twin_takes_those_beside_its_class(scratch):
    entry = register_game("toy", "x.rules.game:Toy")
    assert (entry.reference, entry.twin) == ("x.rules.reference", "x.rules.twin")
    entry = register_game("toy_flat", "game:Toy")
    assert (entry.reference, entry.twin) == ("reference", "twin")


def test_savanna_check_plays_the_twin_the_registration_declares(scratch, tmp_path, monkeypatch):
    (tmp_path / "elsewhere_twin.py").write_text("def play_lockstep(game, s, plies, rng):\n"
                                                "    pass\n")
    monkeypatch.syspath_prepend(tmp_path)
    register_game("toy", "x.game:Toy", reference="x.rules", twin="elsewhere_twin")
    assert twin(SimpleNamespace(name="toy")) is importlib.import_module("elsewhere_twin")
    register_game("toy_missing", "x.game:Toy", twin="nowhere_twin")
    with pytest.raises(AssertionError) as err:
        twin(SimpleNamespace(name="toy_missing"))
    assert str(err.value) == ("toy_missing's registration declares twin='nowhere_twin', and "
                              "no such module imports")


HOOKLESS = """
from savanna.game import Game


class Poker(Game):
    perfect_information = False
    private_chance = True
{hooks}
"""


@pytest.mark.parametrize("hooks, missing", [
    ("", "declares private_chance = True but defines no chance_private_to"),
    ("    def chance_private_to(self, row):\n        return 0\n",
     "declares perfect_information = False but defines no _resample_hidden"),
    ("    def _resample_hidden(self, s, player, rng):\n        return s\n",
     "declares private_chance = True but defines no chance_private_to"),
])
def test_a_game_without_a_hook_its_declarations_need_is_refused_in_one_line(
        tmp_path, monkeypatch, hooks, missing):
    """Hidden information needs its hooks: a game that declares private chance outcomes names
    the seat that sees each, and one with imperfect information redraws what a seat cannot
    see. Loading such a game's class is one line naming the hook."""
    (tmp_path / "hookless.py").write_text(HOOKLESS.format(hooks=hooks))
    monkeypatch.syspath_prepend(tmp_path)
    with pytest.raises(ValueError) as err:
        load_entry({"poker": "hookless:Poker"}, "poker", "game")
    assert missing in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith("game 'poker' is not available (TypeError: hookless.Poker")


def test_a_game_with_every_hook_its_declarations_need_loads(tmp_path, monkeypatch):
    hooks = ("    def chance_private_to(self, row):\n        return 0\n\n"
             "    def _resample_hidden(self, s, player, rng):\n        return s\n")
    (tmp_path / "hooked.py").write_text(HOOKLESS.format(hooks=hooks))
    monkeypatch.syspath_prepend(tmp_path)
    assert load_entry({"poker": "hooked:Poker"}, "poker", "game").private_chance
