"""The benchmarks' board server (``savanna.benchmarks.board_server``): ``savanna serve`` as
its own process, handed back once it answers; one that cannot start is a one-line error."""
import json
import urllib.request

import numpy as np
import pytest

from savanna.benchmarks.board_server import free_port, start_serve


def test_the_server_is_handed_back_answering_with_its_token(tmp_path):
    port = free_port()
    log = open(tmp_path / "serve.log", "w+")
    process = start_serve(port, "secret", "--save", str(tmp_path / "played"), log=log,
                          seconds=120)
    try:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/info",
                                         headers={"Authorization": "token secret"})
        with urllib.request.urlopen(request, timeout=60) as response:
            assert "games" in json.loads(response.read())
    finally:
        process.terminate()
        process.wait(30)
        log.close()
    assert f"127.0.0.1:{port}" in (tmp_path / "serve.log").read_text()  # its output, there


def test_a_server_that_ends_at_once_says_why():
    with pytest.raises(RuntimeError, match=r"savanna serve ended: .*--workers"):
        start_serve(free_port(), "secret", "--workers", "-3")


def test_the_board_benchmarks_clients_play_a_game_to_its_end_with_seat_keys(tmp_path):
    """``board_load.play`` (the 20 scripted clients' game) against a served board: every
    move sent with its seat's key is answered, and the game ends."""
    from savanna.benchmarks import board_load
    from savanna.board.server import create_app
    from savanna.board.tables import Limits
    from tests.web.browser import serving

    app = create_app(Limits(max_seconds=60, save=tmp_path), workers=1, token=board_load.TOKEN)
    timings = []
    with serving(app) as address:
        failed, ended = board_load.play(address.rstrip("/"), "zebres", [], ["human", "random"],
                                        np.random.default_rng(0), timings)
    assert (failed, ended) == (0, True)
    assert timings  # the agent replied to the human's moves
