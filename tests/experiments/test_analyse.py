"""``savanna analyse`` and ``savanna.agents.play.analysis``: every legal move listed with visits
that add up, a principal variation that can be played, JSON, and one-line errors (exit 2) for bad
positions, bad agents, terminal and chance positions."""
import json

import numpy as np
import pytest

from savanna.agents.play.analysis import analyse
from savanna.agents.play.registry import make_agent
from savanna.cli.main import main
from savanna.game import CHANCE
from savanna.registry import make_game

ZEBRES = "z...../..G.../....../.l..../...... g 21 - move"  # player 1 moves the Impala


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_table_lists_every_legal_move_and_a_principal_variation(capsys):
    game = make_game("zebres")
    legal = [game.action_to_string(game.from_text(ZEBRES), a)
             for a in game.legal_actions(game.from_text(ZEBRES))]
    code, out, err = run(["analyse", "zebres", ZEBRES, "--agent", "mcts:sims=300"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("zebres: player 1 to move; mcts:sims=300,c=1.4, 300 simulations")
    moves = lines[2:-1]
    assert sorted(line[: max(map(len, legal))].strip() for line in moves) == sorted(legal)
    assert sum(int(line.split()[-5]) for line in moves) == 300  # the visits column
    assert lines[-1].startswith(f"principal variation: {moves[0].split('  ')[0]}")


def test_json_output_and_the_python_rows_agree(capsys):
    code, out, _ = run(["analyse", "zebres", ZEBRES, "--agent", "mcts:sims=200", "--seed", "4",
                        "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    game = make_game("zebres")
    result = analyse(game, game.from_text(ZEBRES), make_agent("mcts:sims=200"),
                     np.random.default_rng(4))
    assert data["moves"] == result.to_json()["moves"] and data["pv"] == result.pv
    columns = result.columns()
    assert list(columns) == ["move", "action", "visits", "share", "prior", "value_0",
                             "value_1"]
    assert sum(columns["visits"]) == result.simulations == 200
    assert columns["visits"] == sorted(columns["visits"], reverse=True)
    assert np.isclose(sum(columns["prior"]), 1.0)
    for row in result.rows:  # zero-sum: the two players' mean values are opposite
        assert row["visits"] == 0 or np.isclose(row["value_0"], -row["value_1"])
    assert "<table>" in result._repr_html_()


@pytest.mark.parametrize("name, options", [("bonobo", {"num_players": 3}),
                                           ("banjooli", {})])
def test_the_principal_variation_is_a_line_that_can_be_played(name, options):
    """Chance outcomes (a tile drawn, a die) are named in parentheses along the line."""
    game = make_game(name, **options)
    rng = np.random.default_rng(1)
    state = game.init(1, rng)
    while game.current_player(state)[0] == CHANCE:
        game.apply_chance(state, game.sample_chance(state, rng))
    result = analyse(game, state, make_agent("mcts:sims=400"), rng)
    assert result.pv and result.pv[0] == result.rows[0]["move"]
    for name_ in result.pv:
        if name_.startswith("("):
            outcome = name_[1:-1]
            parse = getattr(game, "string_to_outcome", int)
            game.apply_chance(state, [parse(outcome)])
        else:
            game.step_inplace(state, [game.string_to_action(state, name_)])


def test_an_alphazero_checkpoint_analyses(tmp_path, capsys):
    from savanna.agents.models.az_checkpoint import save_checkpoint
    from savanna.agents.models.az_config import AZConfig
    from savanna.agents.training.alphazero import Trainer

    trainer = Trainer(AZConfig(game="zebres", games=2, sims=8, hidden=(16, 16)))
    save_checkpoint(trainer.checkpoint(full=False), tmp_path / "az.pt")
    code, out, _ = run(["analyse", "zebres", ZEBRES, "--agent",
                        f"az:{tmp_path / 'az.pt'},sims=16", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["simulations"] == 16 and len(data["moves"]) == 3 and data["pv"]
    assert np.isclose(sum(m["prior"] for m in data["moves"]), 1.0, atol=1e-5)


def _terminal_zebres():
    game = make_game("zebres")
    state = game.init(1, rng=0)
    game.random_playouts(state, rng=0)
    return game.to_text(state)


@pytest.mark.parametrize("argv, message", [
    (["zebres", "z?...", "--agent", "mcts:sims=10"], "position must have 5 space-separated"),
    (["zebres", ZEBRES, "--agent", "mtcs"], "unknown agent 'mtcs'"),
    (["zebres", ZEBRES, "--agent", "random"],
     "analysis needs a search agent (mcts, ppo-mcts or az), got 'random'"),
    (["zebres", ZEBRES, "--agent", "mcts:sims=0"], "sims must be an int >= 1"),
    (["chess", ZEBRES], "unknown game 'chess'"),
    (["zebres", ZEBRES, "-o", "size=9"], "game 'zebres' has no option 'size'"),
    (["banjooli", "players=2 course=K3,T8,T6,T1 ostriches=a0n,c2n,b1n,c1,a3s cards=0,2 "
                  "to_move=0 dir=+ turn=2 phase=roll dice=??????"], "at a chance node"),
])
def test_mistakes_are_one_line_errors_with_exit_2(argv, message, capsys):
    code, out, err = run(["analyse", *argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith("savanna analyse: error: ")
    assert message in err and err.count("\n") == 1


def test_a_terminal_position_is_a_one_line_error(capsys):
    code, _, err = run(["analyse", "zebres", _terminal_zebres()], capsys)
    assert code == 2 and "at the end of the game: there is no move to analyse" in err
    assert err.count("\n") == 1


def test_a_very_long_position_is_quoted_short(capsys):
    code, _, err = run(["analyse", "zebres", "z" * 10_000], capsys)
    assert code == 2 and len(err) < 400


def test_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", "--help"])
    text = capsys.readouterr().out
    assert exit_.value.code == 0 and text.startswith("usage: savanna analyse ")
    assert "``" not in text and "principal variation" in text
