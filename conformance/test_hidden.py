"""Hidden information: the hooks a game's declarations need, chance outcomes that only one seat
sees, and the worlds ``resample_hidden`` draws. What a seat cannot see reaches none of the
views it is given: its observation, its text and picture, the spectators' picture."""
import numpy as np
import pytest

from savanna.codes import CHANCE
from savanna.conformance import play_random
from savanna.game import HIDDEN_INFORMATION_HOOKS, Game


def visited(game, seed, games=4):
    """Every state of ``games`` seeded random games, as one batch."""
    seen = []
    play_random(game, game.init(games, rng=seed), np.random.default_rng(seed),
                on_step=lambda s: seen.append(s.copy()))
    return np.concatenate(seen)


VIEWS = ("observation", "text picture", "picture", "spectators' picture")  # as views() lists


def views(game, row, seat):
    """Everything ``seat`` is shown of ``row``: its observation, text and picture, and the
    spectators' picture."""
    return (game.observe(row, seat).tobytes(), game.render(row, seat),
            game.render_svg(row, seat), game.render_drawing(row, public=True).svg())


def test_the_declarations_have_their_hooks(game):
    cls = type(game)
    for declaration, (value, hook, _) in HIDDEN_INFORMATION_HOOKS.items():
        if getattr(cls, declaration) == value:
            assert getattr(cls, hook) is not getattr(Game, hook), (declaration, hook)
    assert not (game.private_chance and game.perfect_information), \
        "private chance outcomes are hidden information: perfect_information must be False"


def test_chance_outcomes_have_names(game):
    if not game.has_chance:
        pytest.skip("no chance")
    names = [game.outcome_to_string(o) for o in range(game.max_chance_outcomes)]
    assert all(isinstance(n, str) and n and "\n" not in n for n in names)
    assert len(set(names)) == len(names), names
    with pytest.raises(ValueError):
        game.outcome_to_string(game.max_chance_outcomes)


def test_a_private_chance_outcome_reaches_no_other_seat(game):
    """At each chance node that one seat alone sees, every possible outcome leaves every
    other seat's views alike (and the spectators'); at a public one, chance_private_to is
    None."""
    states = visited(game, seed=11)
    nodes = states[game.current_player(states) == CHANCE]
    private = 0
    for k in range(len(nodes)):
        row = nodes[k : k + 1]
        owner = game.chance_private_to(row)
        if owner is None:
            continue
        assert game.private_chance and 0 <= owner < game.num_players, owner
        private += 1
        outcomes = np.flatnonzero(game.chance_probs(row)[0])
        after = []
        for outcome in outcomes:
            child = row.copy()
            game.apply_chance(child, [outcome])
            after.append(child)
        for seat in range(game.num_players):
            if seat != owner:
                seen = {views(game, child, seat) for child in after}
                assert len(seen) == 1, (f"seat {seat} tells apart the outcomes dealt to seat "
                                        f"{owner} at {game.to_text(row)}")
    assert private or not game.private_chance, "private_chance, yet no private chance node"


def test_a_chance_outcome_some_seats_alone_see_is_declared_private(game):
    """A chance outcome that reaches one seat's observation and not another's is a secret: the
    game must declare it (``private_chance = True`` and ``chance_private_to``), or the board,
    records and terminal, which ask the declaration, show it to every seat."""
    states = visited(game, seed=13, games=2)
    nodes = states[game.current_player(states) == CHANCE]
    for k in range(min(len(nodes), 64)):
        row = nodes[k : k + 1]
        outcomes = np.flatnonzero(game.chance_probs(row)[0])
        if len(outcomes) < 2:
            continue
        children = np.repeat(row, len(outcomes))
        game.apply_chance(children, outcomes)
        tell = [len({game.observe(children[i : i + 1], seat).tobytes()
                     for i in range(len(children))}) > 1 for seat in range(game.num_players)]
        owner = game.chance_private_to(row) if game.private_chance else None
        if any(tell) and not all(tell) and owner is None:
            seers = [seat for seat in range(game.num_players) if tell[seat]]
            blind = [seat for seat in range(game.num_players) if not tell[seat]]
            raise AssertionError(
                f"the chance outcome at {game.to_text(row)} reaches the observation of seat "
                f"{', '.join(map(str, seers))} but not of seat {', '.join(map(str, blind))}: "
                "declare it private (private_chance = True, and chance_private_to(row) "
                "returning the seat that sees it)")


def test_a_seat_decides_from_nothing_it_has_not_seen(game):
    """At every node of seeded random games, redrawing what a seat has not seen
    (``resample_hidden(s, seat)``, the world the arena hands its agent) changes nothing the
    seat decides from: its observation, the player to move, and its legal moves when it is
    to move. A difference is a leak, whatever its path (a chance outcome, another seat's
    secret choice): the seat's view depends on what it may not see."""
    if game.perfect_information:
        pytest.skip("perfect information: nothing hidden")
    rng = np.random.default_rng(3)

    def check(s):
        n = len(s)
        for seat in range(game.num_players):
            world = game.resample_hidden(s, seat, rng)
            to_move = game.current_player(s) == seat
            for what, a, b, rows in (
                    ("observation", game.observe(s, seat), game.observe(world, seat), True),
                    ("player to move", game.current_player(s), game.current_player(world),
                     True),
                    ("legal moves", game.legal_mask(s), game.legal_mask(world), to_move)):
                differ = np.flatnonzero((a != b).reshape(n, -1).any(axis=1) & rows)
                if len(differ):
                    k = differ[0]
                    raise AssertionError(
                        f"redrawing what seat {seat} has not seen (resample_hidden(s, "
                        f"{seat})) changes its {what} at {game.to_text(s[k : k + 1])}: "
                        f"{_difference(what, a[k], b[k])}; it must depend only on what seat "
                        f"{seat} has seen")

    play_random(game, game.init(6, rng=4), rng, on_step=check)


def _difference(what, true, redrawn):
    """Where an observation, a player or a legal mask (``what``) differs, in a few words."""
    true, redrawn = np.ravel(true), np.ravel(redrawn)
    if what == "legal moves":
        return (f"legal moves {np.flatnonzero(true).tolist()} in the true state, "
                f"{np.flatnonzero(redrawn).tolist()} in the redrawn one")
    at = np.flatnonzero(true != redrawn)[:8]
    return (f"entries {at.tolist()} are {true[at].tolist()} in the true state, "
            f"{redrawn[at].tolist()} in the redrawn one")


def test_resampled_worlds_keep_what_the_seat_has_seen(game):
    """``resample_hidden(s, seat)`` gives accepted states that ``seat`` cannot tell from
    ``s``: the same views, the same player to move and legal moves."""
    states = visited(game, seed=12, games=2)
    states = states[np.linspace(0, len(states) - 1, 8).astype(int)]  # start to end
    for seat in range(game.num_players):
        worlds = game.resample_hidden(states, seat, rng=seat)
        game.check_states(worlds)
        assert (game.current_player(worlds) == game.current_player(states)).all()
        assert (game.legal_mask(worlds) == game.legal_mask(states)).all()
        for k in range(len(states)):
            changed = [name for name, a, b in zip(VIEWS, views(game, worlds[k : k + 1], seat),
                                                  views(game, states[k : k + 1], seat)) if a != b]
            assert not changed, (f"resample_hidden(s, {seat}) changed seat {seat}'s "
                                 f"{' and '.join(changed)} of {game.to_text(states[k : k + 1])}")
        if game.perfect_information:
            assert worlds.tobytes() == states.tobytes()
