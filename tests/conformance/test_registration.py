"""Each game's registration (``savanna.registry.register_game`` in its package) agrees with
the game it names: the player counts it takes, the defaults of its options, its Gymnasium id."""
import gymnasium
import pytest

from savanna.metadata import game_options
from savanna.registry import GAMES, game_class, make_game, register_game


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
])
def test_a_malformed_registration_is_refused(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        register_game(*args, **kwargs)
    assert "toy" not in GAMES
