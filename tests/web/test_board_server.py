"""The benchmarks' board server (``savanna.benchmarks.board_server``): ``savanna serve`` as
its own process, handed back once it answers; one that cannot start is a one-line error."""
import json
import urllib.request

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
