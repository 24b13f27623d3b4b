"""``savanna serve`` on the command line: where it listens, what it warns, which folders it
serves, the token in the address it prints, a --save it cannot write (uvicorn replaced by a
stand-in that records its arguments)."""
import re

import pytest
import uvicorn
from starlette.testclient import TestClient

from savanna.experiments.cli import main


@pytest.fixture
def served(monkeypatch, tmp_path):
    """The arguments uvicorn.run would get, and the browser opened (none in these tests)."""
    calls = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.update(app=app, **kw))
    monkeypatch.chdir(tmp_path)
    return calls


def test_it_listens_on_this_machine_by_default_and_serves_the_played_games(served, capsys,
                                                                           tmp_path):
    (tmp_path / "runs").mkdir()
    assert main(["serve", "runs"]) == 0
    out, err = capsys.readouterr()
    assert served["host"] == "127.0.0.1" and served["port"] == 8000 and err == ""
    assert out.startswith("savanna serve: http://127.0.0.1:8000/?token=")
    assert (tmp_path / "runs" / "played").is_dir()  # --save's default, made and served
    limits = served["app"].state.limits
    assert limits.folders == ((tmp_path / "runs").resolve(),
                              (tmp_path / "runs" / "played").resolve())


def test_it_warns_in_one_line_when_told_to_listen_elsewhere(served, capsys):
    assert main(["serve", "--host", "0.0.0.0", "--port", "8080", "--max-sims", "50"]) == 0
    err = capsys.readouterr().err
    assert served["host"] == "0.0.0.0" and served["port"] == 8080
    assert err.count("\n") == 1 and err.startswith("warning: listening on 0.0.0.0")
    assert served["app"].state.limits.max_sims == 50


def test_the_printed_address_carries_a_new_token_that_opens_the_board(served, capsys):
    tokens = []
    for _ in range(2):
        assert main(["serve", "--idle-minutes", "5"]) == 0
        url = re.search(r"(http://\S+)", capsys.readouterr().out)[1]
        tokens.append(url.partition("?token=")[2])
        client = TestClient(served["app"], base_url="http://127.0.0.1:8000")
        assert client.get("/api/info").status_code == 401
        assert client.get(url.replace("http://127.0.0.1:8000", "")).status_code == 200
        assert client.get("/api/info").status_code == 200  # the cookie it set
    assert tokens[0] != tokens[1] and min(map(len, tokens)) >= 40
    assert served["app"].state.limits.idle_minutes == 5
    # a connection that sends nothing is closed, headers are bounded
    assert served["timeout_keep_alive"] <= 10 and served["h11_max_incomplete_event_size"]


def test_a_chosen_token_and_none_with_a_warning(served, capsys):
    assert main(["serve", "--token", "mine", "--allow-host", "board.lab"]) == 0
    assert "/?token=mine " in capsys.readouterr().out
    client = TestClient(served["app"], base_url="http://board.lab")
    assert client.get("/api/info", headers={"Authorization": "token mine"}).status_code == 200
    assert main(["serve", "--token", ""]) == 0
    out, err = capsys.readouterr()
    assert "?token" not in out and err.count("\n") == 1 and "turns the token off" in err
    client = TestClient(served["app"], base_url="http://127.0.0.1:8000")
    assert client.get("/api/info").status_code == 200


def test_an_allowed_name_with_a_port_works_and_a_malformed_one_is_refused_at_start(served,
                                                                                 capsys):
    assert main(["serve", "--port", "8123", "--allow-host", "board.test:8123"]) == 0
    client = TestClient(served["app"], base_url="http://board.test:8123")
    url = re.search(r"(http://\S+)", capsys.readouterr().out)[1]
    assert client.get(url.replace("http://127.0.0.1:8123", "")).status_code == 200
    assert client.get("/api/info").status_code == 200
    other = TestClient(served["app"], base_url="http://board.test:8124")
    assert other.get("/api/info").status_code == 403
    served.clear()
    assert main(["serve", "--allow-host", "http://board.test:8123/"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--allow-host 'http://board.test:8123/'" in err
    assert "app" not in served


def test_a_token_a_url_or_a_cookie_would_mangle_is_refused(served, capsys):
    assert main(["serve", "--token", "a b;c"]) == 2
    assert "--token must be" in capsys.readouterr().err and "app" not in served


@pytest.mark.parametrize("save", ["a-file", "/proc"])
def test_a_save_folder_that_cannot_be_written_is_refused_at_the_start(served, capsys, tmp_path,
                                                                     save):
    (tmp_path / "a-file").write_text("")
    assert main(["serve", "--save", save]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and save in err and "app" not in served
