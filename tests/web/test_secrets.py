"""Nothing secret leaves the server before its time: for every registered game and a Kuhn-like
toy that deals each card face down at a chance node, a whole game is played through the HTTP
routes while a spectator and the human seat watch the push channel; every raw byte any of them
got before the end is searched for the seed (the dice, tiles and agents' choices to come) and
for the cards dealt to another seat. At the end both are public, and found: the search can
fail."""
import json
import secrets
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

from savanna.registry import GAMES
from tests.web.push import TOKEN, Watch, answer

TOY = Path(__file__).parents[1] / "toy_game"


@pytest.fixture(scope="module", autouse=True)
def toy():
    """The Kuhn-like toy registered as a plug-in would be, for this module only (as it is,
    when the suite runs with the toy games installed), before the board is served."""
    if "kuhn_toy" in GAMES:
        yield "kuhn_toy"
        return
    sys.path.insert(0, str(TOY))
    import kuhn_toy  # noqa: F401  (registers itself)
    yield "kuhn_toy"
    entry = GAMES.pop("kuhn_toy")
    gymnasium.registry.pop(entry.env_id, None)
    sys.path.remove(str(TOY))
    for name in [m for m in sys.modules if m == "kuhn_toy" or m.startswith("kuhn_toy.")]:
        del sys.modules[name]


def before_the_end(raw):
    """The bytes of a push connection before its first view of the game over."""
    end = raw.find(b'"over":true')
    return raw if end < 0 else raw[: raw.rfind(b"event: view", 0, end)]


def dealt(table):
    """``(seat, the outcome's name)`` of each chance outcome private to one seat."""
    return [(entry["to"], entry["text"].removeprefix("chance: ")) for entry in table.log
            if entry.get("to") is not None]


def shows(body, name):
    """Whether ``body`` says card ``name``: in a log line or as a picture's text."""
    return f"chance: {name}".encode() in body or f">{name}<".encode() in body


@pytest.mark.parametrize("name", [*GAMES, *{"kuhn_toy"} - set(GAMES)])
def test_no_route_nor_push_sends_the_seed_or_another_seats_card_before_the_end(served, name):
    address, app = served
    seats = ["human"] + ["random"] * (GAMES[name].players[0] - 1)
    seed = 2**62 + secrets.randbelow(2**61)  # 19 digits no answer holds by chance
    status, created = answer(address, "POST", "/api/tables",
                             {"game": name, "seats": seats, "seed": seed})
    assert status == 200, created
    view = json.loads(created)
    table, key = app.state.tables[view["id"]], view["keys"]["0"]
    watchers = {0: Watch(address, table.id, key, TOKEN), None: Watch(address, table.id,
                                                                      token=TOKEN)}
    got = {0: [created], None: []}  # the raw answers to the human seat and to a spectator
    rng = np.random.default_rng(0)
    analysed = False
    while not view["over"]:
        for who, k in ((0, key), (None, None)):
            got[who] += [answer(address, "GET", f"/api/tables/{table.id}", key=k)[1],
                         answer(address, "GET", f"/api/tables/{table.id}/record", key=k)[1]]
        got[None].append(answer(address, "POST", "/api/reviews",
                                {"table": table.id, "agent": "mcts:sims=20"})[1])
        if not analysed and not table.game.perfect_information:
            status, body = answer(address, "POST", "/api/analyses",
                                  {"table": table.id, "agent": "mcts:sims=40"}, key)
            got[0].append(body)
            if status == 200:
                job = json.loads(body)["id"]
                while not json.loads(
                        body := answer(address, "GET", f"/api/analyses/{job}")[1])["done"]:
                    got[0].append(body)
                got[0].append(body)
            analysed = True
        action = view["moves"][rng.integers(len(view["moves"]))]["action"]
        status, body = answer(address, "POST", f"/api/tables/{table.id}/move",
                              {"action": action, "version": view["version"]}, key)
        assert status == 200, body
        view = json.loads(body)
        if not view["over"]:
            got[0].append(body)
    for who, watch in watchers.items():
        watch.wait_for(lambda _, kind, data: kind == "view" and data["over"])
        got[who].append(before_the_end(bytes(watch.raw)))
        watch.close()
    assert len(got[0]) > 3 and all(got.values())
    for who, answers in got.items():
        for body in answers:
            assert str(seed).encode() not in body, (who, body[:300])
            for seat, card in dealt(table):
                assert seat == who or not shows(body, card), (who, seat, card, body[:300])
    # at the end everything is public: the seed and every card, which the search finds
    end = bytes(watchers[None].raw)
    assert str(seed).encode() in end and view["seed"] == seed
    assert all(shows(end, card) for _, card in dealt(table))
    if name == "kuhn_toy":
        assert {seat for seat, _ in dealt(table)} == set(range(len(seats)))
