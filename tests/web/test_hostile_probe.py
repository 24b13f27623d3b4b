"""A hostile client against ``savanna serve`` on the loopback, over raw sockets (any byte a
client may send): every route with hostile names, numbers, bodies and headers, malformed HTTP,
headers that never end. No answer is a 5xx, no answer holds the path of the server's code, and
no error holds the path of a served folder; the server answers a plain request at the end.
Every loop is bounded (a fixed list of cases, one connection each, a deadline on each read).
"""
import json
import socket
import threading
from pathlib import Path

import pytest

from savanna.board.hidden_paths import CODE
from savanna.board.network import HeaderDeadline, ReadyServer, server_config
from savanna.board.server import create_app
from savanna.board.tables import Limits, Table
from savanna.records import write_records

TOKEN = "probe-token"
READ_SECONDS = 60

NAMES = ["a" * 300 + ".jsonl", "x\0.jsonl", "%00", "../../etc/passwd", "/etc/passwd",
         "a/" * 2000 + "b.jsonl", "%ff%fe.jsonl", "..", ".", "//", "C:\\x.jsonl",
         "%2e%2e/%2e%2e/x", "games.jsonl/..", ".hidden/secret.jsonl", "notes.jsonl",
         "ladder.json", "tournament.json", "big.pt", "games.jsonl\n", "\u00e9\u0301.jsonl"]
NUMBERS = ["-1", "1e999", "9" * 30, "", " ", "nan", "0x10", "\u0661", "true", "1.5"]
SEATS = ["az:x\0.pt", f"az:{'a' * 300}.pt", "az:big.pt", "az:checkpoint=../../etc/passwd",
         "mcts:sims=99999999999", "mcts:sims=-1", "az:" + "a/" * 1500 + "b.pt",
         "mypkg.agents:Evil", "./evil.py:Evil", "random:" + "x=1," * 500, "\ud800", "human\0"]
ORIGINS = ["http://[::1", "http://[", "http://[::1]:80:80", "\x7f://[::]", "null",
           "http://a:b@[x]", "http://127.0.0.1:99999", "http://" + "a" * 5000]
HOSTS = ["[::1", "a" * 300, "", "127.0.0.1:99999", "[zz]", "127.0.0.1:80:80", "\x00",
         "evil.example"]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """A served folder with hostile files in it, and the server's address."""
    folder = tmp_path_factory.mktemp("served")
    table = Table.new("zebres", {}, ["random", "random"], 0, Limits())
    table.play_agents()
    write_records(folder / "games.jsonl", [table.record()])
    (folder / "notes.jsonl").write_text('{"format": "TOP-SECRET"}\n')
    (folder / "ladder.json").write_text("{")
    (folder / "tournament.json").write_text("[]")
    with open(folder / "big.pt", "wb") as f:
        f.write(b"savanna-checkpoint\nsavanna-az 1 0\n")
        f.truncate(1 << 30)
    (folder / ".hidden").mkdir()
    write_records(folder / ".hidden" / "secret.jsonl", [table.record()])
    limits = Limits(max_sims=50, max_seconds=30, folders=(folder,), save=folder / "played")
    app = create_app(limits, workers=1, token=TOKEN)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))  # a free port
    ready = threading.Event()
    config = server_config(app, log_level="critical", http=HeaderDeadline,
                           timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024)
    server = ReadyServer(config, ready.set)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert ready.wait(120)
        yield sock.getsockname(), folder
    finally:
        server.should_exit = True
        thread.join(60)
        sock.close()


def exchange(address, data):
    """Send ``data`` on a new connection; the whole answer (until the server closes)."""
    with socket.create_connection(address, timeout=READ_SECONDS) as client:
        client.sendall(data)
        answer = b""
        while chunk := client.recv(1 << 16):
            answer += chunk
    return answer


def request(address, method, target, headers=(), body=b""):
    """A raw HTTP/1.1 request (``target`` and headers as latin-1 bytes, whatever they hold)."""
    host = f"127.0.0.1:{address[1]}"
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}", "Connection: close",
             f"Authorization: token {TOKEN}", *headers]
    if body or method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    head = "\r\n".join(lines).encode("latin-1", "replace") + b"\r\n\r\n"
    return exchange(address, head + body)


def status_of(answer):
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None


def json_text(value):
    return json.dumps(value).encode("utf-8", "surrogatepass")


def cases(table, key):
    """``(method, target, headers, body)`` of every hostile request."""
    out = []
    for name in NAMES:
        quoted = name.replace("\0", "%00").replace("\n", "%0A").replace(" ", "%20")
        for target in (f"/api/records?file={quoted}", f"/api/record?file={quoted}&game=0",
                       f"/api/replay?file={quoted}&game=0&ply=0", f"/api/ratings?file={quoted}",
                       f"/static/{quoted}", f"/api/tables/{quoted}"):
            out.append(("GET", target, (), b""))
        out.append(("POST", "/api/analyses", (), json_text(
            {"agent": "mcts:sims=8", "file": name, "game": 0, "ply": 0})))
        out.append(("POST", "/api/reviews", (), json_text({"file": name, "game": 0})))
    for number in NUMBERS:
        n = number.replace(" ", "%20")
        for target in (f"/api/replay?file=games.jsonl&game={n}&ply=0",
                       f"/api/replay?file=games.jsonl&game=0&ply={n}",
                       f"/api/replay?file=games.jsonl&game=0&ply=0&seat={n}",
                       f"/api/records?file=games.jsonl&offset={n}",
                       f"/api/records?file=games.jsonl&limit={n}",
                       f"/api/record?file=games.jsonl&game={n}"):
            out.append(("GET", target, (), b""))
    for seat in SEATS:
        out.append(("POST", "/api/tables", (), json_text(
            {"game": "zebres", "seats": ["human", seat]})))
        out.append(("POST", "/api/analyses", (), json_text(
            {"agent": seat, "game": "zebres", "position": "z...../..G.../....../.l..../......"
                                                          " g 21 - move"})))
    url = f"/api/tables/{table}"
    for body in (b"[" * 5000, b'{"action": ' + b"[" * 1000 + b"}", b"\xff\xfe{}", b"{}" * 5000,
                 b'{"action": 1e999, "version": -1}', b'{"action": 0, "version": "\\u0000"}',
                 b'{"game": "zebres", "seats": ["human", "random"], "seed": 1e999}',
                 b'{"game": "\\ud800", "seats": []}', b"null", b'"x"'):
        for target in ("/api/tables", f"{url}/move", f"{url}/advance", f"{url}/undo",
                       "/api/analyses", "/api/reviews", "/api/readying"):
            out.append(("POST", target, (f"X-Seat-Key: {key}",), body))
    for origin in ORIGINS:
        out.append(("POST", "/api/tables", (f"Origin: {origin}",), json_text(
            {"game": "zebres", "seats": ["human", "random"]})))
    for value in ("token \x7f", "token " + "a" * 5000, "Basic x", "token"):
        out.append(("GET", "/api/info", (f"Authorization: {value}",), b""))
    for header in ("Cookie: savanna_token=" + "a" * 5000, "Cookie: ;;;===",
                   "Content-Type: application/json; charset=\x7f", "X-Seat-Key: \x7f" * 3,
                   "Sec-Fetch-Site: \x01", "Content-Length: -1"):
        out.append(("POST", f"{url}/move", (header,), b"{}"))
    out.append(("GET", "/api/position?game=zebres&position=" + "z" * 5000, (), b""))
    out.append(("GET", "/api/position?game=zebres&option=" + "x=1&option=" * 200, (), b""))
    out.append(("GET", "/api/position?game=%00&position=%00", (), b""))
    out.append(("DELETE", "/api/analyses/" + "a" * 300, (), b""))
    out.append(("PUT", "/api/tables", (), b"{}"))
    return out


def malformed(address):
    """Bytes that are no HTTP request, or one too big."""
    host = f"Host: 127.0.0.1:{address[1]}\r\n".encode()
    return [b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(100),  # a TLS hello
            b"GET / HTTP/1.1\r\n\r\n", b"GET\r\n\r\n", b"\r\n\r\n\r\n",
            b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n" + host + b"\r\n",
            b"GET / HTTP/1.1\r\n" + host + b"X: " + b"a" * 20000 + b"\r\n\r\n",
            b"GET / HTTP/1.1\r\n" + host + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\n",
            b"POST /api/tables HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\n\r\n"
            b"zz\r\n", b"GET / HTTP/9.9\r\n" + host + b"\r\n", b"\x00" * 1000]


def test_no_hostile_request_gets_a_5xx_or_a_path_of_the_server(board, monkeypatch):
    address, folder = board
    monkeypatch.setattr(HeaderDeadline, "seconds", 1.0)  # the probe's half requests
    created = json.loads(request(address, "POST", "/api/tables", body=json_text(
        {"game": "zebres", "seats": ["human", "random"]})).partition(b"\r\n\r\n")[2])
    key = created["keys"]["0"]
    code, served = str(CODE).encode(), str(folder).encode()
    answers = [(what[:2], request(address, *what)) for what in cases(created["id"], key)]
    answers += [(data[:40], exchange(address, data)) for data in malformed(address)]
    for host in HOSTS:
        data = (f"GET /api/info HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
                .encode("latin-1"))
        answers.append((host[:40], exchange(address, data)))
    for half in (b"", b"GET /api/in", b"GET / HTTP/1.1\r\nHost: 127.0.0.1"):
        answers.append((half, exchange(address, half)))  # closed at the deadline
    assert len(answers) > 300
    for what, answer in answers:
        status = status_of(answer)
        assert status is None or status < 500, (what, answer[:300])
        assert code not in answer, (what, answer[:300])
        if status is not None and status >= 400:
            assert served not in answer and b"TOP-SECRET" not in answer, (what, answer[:300])
    refused = [status_of(a) for _, a in answers if status_of(a) is not None]
    assert sum(400 <= s < 500 for s in refused) > 250
    info = request(address, "GET", "/api/info")
    assert status_of(info) == 200 and b'"games"' in info  # still answering
    assert Path(folder / "big.pt").stat().st_size == 1 << 30
