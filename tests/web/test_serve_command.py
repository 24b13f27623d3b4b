"""``savanna serve`` on the command line: where it listens (the next port when one is busy),
what it warns, which folders it serves, the token in the address it prints, a --save it cannot
write (the server's run replaced by a stand-in that records its settings); and served for
real: the address printed and the browser opened once it answers, the headers' deadline."""
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from starlette.testclient import TestClient

from savanna.board import notebook
from savanna.board.network import PORT_TRIES, HeaderDeadline, ReadyServer, server_config
from savanna.board.server import create_app
from savanna.board.tables import Limits
from savanna.cli.main import main


@pytest.fixture
def served(monkeypatch, tmp_path):
    """What the server would run: its app, uvicorn settings and address; the server then
    says it is ready (and it prints its address)."""
    calls = {}

    def run(server, sockets):
        calls.update(app=server.config.app, config=server.config,
                     address=sockets[0].getsockname()[:2])
        server.ready()

    monkeypatch.setattr(ReadyServer, "run", run)
    monkeypatch.delenv("SAVANNA_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    return calls


def test_it_listens_on_this_machine_by_default_and_serves_the_played_games(served, capsys,
                                                                           tmp_path):
    (tmp_path / "runs").mkdir()
    assert main(["serve", "runs"]) == 0
    out, err = capsys.readouterr()
    host, port = served["address"]
    assert host == "127.0.0.1" and 8000 <= port < 8000 + PORT_TRIES
    assert out.startswith(f"savanna serve: http://127.0.0.1:{port}/?token=")
    assert err == "" or err == f"savanna serve: port 8000 is in use, so port {port}\n"
    assert (tmp_path / "runs" / "played").is_dir()  # --save's default, made and served
    limits = served["app"].state.limits
    assert limits.folders == ((tmp_path / "runs").resolve(),
                              (tmp_path / "runs" / "played").resolve())


def test_it_warns_in_one_line_when_told_to_listen_elsewhere(served, capsys):
    assert main(["serve", "--host", "0.0.0.0", "--port", "8080", "--max-sims", "50"]) == 0
    err = capsys.readouterr().err
    assert served["address"][0] == "0.0.0.0" and served["address"][1] >= 8080
    assert err.startswith("warning: listening on 0.0.0.0") and len(err.splitlines()) in (1, 2)
    assert served["app"].state.limits.max_sims == 50


def test_the_printed_address_carries_a_new_token_that_opens_the_board(served, capsys):
    tokens = []
    for _ in range(2):
        assert main(["serve", "--idle-minutes", "5"]) == 0
        url = re.search(r"(http://\S+)", capsys.readouterr().out)[1]
        tokens.append(url.partition("?token=")[2])
        client = TestClient(served["app"], base_url=url.split("/?")[0])
        assert client.get("/api/info").status_code == 401
        assert client.get("/" + url.split("/", 3)[3]).status_code == 200
        assert client.get("/api/info").status_code == 200  # the cookie it set
    assert tokens[0] != tokens[1] and min(map(len, tokens)) >= 40
    assert served["app"].state.limits.idle_minutes == 5
    # a connection that sends nothing is closed, headers are bounded
    config = served["config"]
    assert config.timeout_keep_alive <= 10 and config.h11_max_incomplete_event_size
    assert config.http is HeaderDeadline


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
    assert client.get("/" + url.split("/", 3)[3]).status_code == 200
    assert client.get("/api/info").status_code == 200
    other = TestClient(served["app"], base_url="http://board.test:8124")
    assert other.get("/api/info").status_code == 403
    served.clear()
    assert main(["serve", "--allow-host", "http://board.test:8123/"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--allow-host 'http://board.test:8123/'" in err
    assert "app" not in served


def test_the_token_from_the_environment_out_of_the_process_list(served, capsys, monkeypatch):
    monkeypatch.setenv("SAVANNA_TOKEN", "from-the-env")
    assert main(["serve"]) == 0
    assert "/?token=from-the-env " in capsys.readouterr().out
    client = TestClient(served["app"], base_url="http://127.0.0.1:8000")
    assert client.get("/api/info", headers={"Authorization": "token from-the-env"}) \
        .status_code == 200
    assert main(["serve", "--token", "given"]) == 0  # the command line comes first
    assert "/?token=given " in capsys.readouterr().out
    monkeypatch.setenv("SAVANNA_TOKEN", "a b")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "SAVANNA_TOKEN must be at most 256" in err
    monkeypatch.setenv("SAVANNA_TOKEN", "")  # set but empty: a random one
    assert main(["serve"]) == 0
    assert len(re.search(r"\?token=(\S+) ", capsys.readouterr().out)[1]) >= 40
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "SAVANNA_TOKEN" in " ".join(capsys.readouterr().out.split())


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


def busy_ports(count):
    """``count`` consecutive ports of 127.0.0.1 held by listening sockets: (first, sockets)."""
    for first in range(20000, 60000, 997):
        socks = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                socks.append(sock)
                sock.bind(("127.0.0.1", port))
                sock.listen()
            return first, socks
        except OSError:
            for sock in socks:
                sock.close()
    raise AssertionError("no free ports")


def test_a_busy_port_gives_the_next_free_one_and_all_busy_one_line(served, capsys):
    first, socks = busy_ports(PORT_TRIES + 2)
    try:
        socks[1].close()  # first + 1 is free
        assert main(["serve", "--port", str(first)]) == 0
        out, err = capsys.readouterr()
        assert served["address"] == ("127.0.0.1", first + 1)
        assert err == f"savanna serve: port {first} is in use, so port {first + 1}\n"
        assert f"http://127.0.0.1:{first + 1}/?token=" in out
        served.clear()
        assert main(["serve", "--port", str(first + 2)]) == 2  # the next ten all busy
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"ports {first + 2}..{first + 11} of 127.0.0.1 are " \
            "all in use: choose another with --port" in err and "app" not in served
    finally:
        for sock in socks:
            sock.close()


def test_the_command_leaves_the_logging_handlers_open_and_prints_the_servers_errors(
        served, capsys, tmp_path):
    handlers_left_open(lambda: main(["serve", str(tmp_path)]), capsys, tmp_path)


def test_the_notebooks_server_leaves_the_logging_handlers_open(capsys, tmp_path):
    handlers_left_open(lambda: notebook.serve([tmp_path]), capsys, tmp_path)


def handlers_left_open(serve, capsys, folder):
    """uvicorn's own logging set-up would close every handler of the process (a notebook
    kernel's, the test runner's): one installed before ``serve()`` still writes after, and
    the server's errors are printed on stderr."""
    handler = logging.FileHandler(folder / "log.txt", mode="w")  # closed: never reopened
    logger = logging.getLogger("savanna.tests.served")
    logger.addHandler(handler)
    try:
        serve()
        logger.warning("still written")
        logging.getLogger("uvicorn.error").error("the server's error")
    finally:
        logger.removeHandler(handler)
        handler.close()
    assert (folder / "log.txt").read_text() == "still written\n"
    assert "ERROR:    the server's error\n" in capsys.readouterr().err


def test_the_address_is_printed_and_the_browser_opened_once_the_server_answers(tmp_path):
    """``savanna serve --open`` with a browser (``$BROWSER``) that asks for the page it is
    given at once (keeping the token's cookie): it gets the page, and the printed address
    is that page's."""
    browser = tmp_path / "browser"
    browser.write_text(f"#!{sys.executable}\n"
                       "import sys, urllib.request\n"
                       "try:\n"
                       "    opener = urllib.request.build_opener("
                       "urllib.request.HTTPCookieProcessor())\n"
                       "    answer = opener.open(sys.argv[1], timeout=30).status\n"
                       "except Exception as err:\n"
                       "    answer = repr(err)\n"
                       f"open({str(tmp_path / 'opened')!r}, 'w').write(f'{{answer}} "
                       "{sys.argv[1]}')\n")
    browser.chmod(0o755)
    first, socks = busy_ports(1)
    for sock in socks:
        sock.close()
    env = {**os.environ, "BROWSER": str(browser), "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "savanna.experiments", "serve", "--port", str(first), "--open",
         "--workers", "1", "--save", str(tmp_path / "played")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = server.stdout.readline()
        url = re.match(r"savanna serve: (\S+) ", line)[1]
        with urllib.request.urlopen(url.split("?")[0] + "api/info", timeout=1) as r:
            raise AssertionError(f"no token, yet {r.status}")
    except urllib.error.HTTPError as err:
        assert err.code == 401  # it answers as soon as the address is printed
    finally:
        for _ in range(300):
            if (tmp_path / "opened").exists() and (tmp_path / "opened").read_text():
                break
            time.sleep(0.1)
        server.terminate()
        server.wait(30)
    assert (tmp_path / "opened").read_text() == f"200 {url}"


def test_a_half_sent_request_is_closed_at_the_header_deadline(monkeypatch):
    """Slowloris: connections that send nothing, half a request line, headers without their
    end, or a second request's first half: each closed, while whole requests are answered."""
    monkeypatch.setattr(HeaderDeadline, "seconds", 0.5)
    app = create_app(Limits(), token="")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))  # a free port
    config = server_config(app, http=HeaderDeadline, timeout_keep_alive=60)
    ready = threading.Event()
    server = ReadyServer(config, ready.set)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert ready.wait(60)
        address = sock.getsockname()
        whole = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        halves = [b"", b"GET /api/in", whole[:-2], whole + whole[:20]]
        clients = []
        for half in halves:
            client = socket.create_connection(address, timeout=10)
            client.sendall(half)
            clients.append(client)
        for half, client in zip(halves, clients):
            received = b""
            while chunk := client.recv(65536):  # until the server closes it
                received += chunk
            assert received.count(b"HTTP/1.1 200") == half.count(whole), half
            client.close()
        with urllib.request.urlopen(f"http://127.0.0.1:{address[1]}/api/info", timeout=10) as r:
            assert r.status == 200
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


LOOPBACK = re.compile(r"(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])")


@pytest.mark.parametrize("flags, shared", [
    ([], "192.0.2.7"),  # the machine's own address, found (here: told by the stand-in)
    (["--public-url", "https://board.example/lab"], "board.example/lab"),
])
def test_serving_beyond_loopback_no_printed_or_copied_link_points_at_loopback(
        served, capsys, monkeypatch, flags, shared):
    """Checked on the text only: nothing is sent to the address printed."""
    from savanna.board import network

    monkeypatch.setattr(network, "machine_addresses", lambda version=4: ["192.0.2.7"])
    monkeypatch.setenv("SAVANNA_TOKEN", "T")
    assert main(["serve", "--host", "0.0.0.0", *flags]) == 0
    out = capsys.readouterr().out
    printed = re.findall(r"https?://\S+", out)
    assert printed and not any(LOOPBACK.search(url) for url in printed), out
    assert shared in printed[0]
    client = TestClient(served["app"], base_url="http://127.0.0.1:8000",
                        headers={"Authorization": "token T"})
    made = client.post("/api/tables", json={"game": "zebres", "seats": ["human", "human"]})
    links = [*made.json()["invitations"].values(), made.json()["spectate"]]
    assert all(shared in link and not LOOPBACK.search(link) for link in links), links
    assert shared in client.get("/api/info").json()["public_url"]


def test_a_malformed_public_url_is_refused_in_one_line(served, capsys):
    assert main(["serve", "--public-url", "board.example"]) != 0
    err = capsys.readouterr().err
    assert "--public-url must be an http:// or https:// address" in err
    assert len(err.strip().splitlines()) == 1
