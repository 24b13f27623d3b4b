"""A test's client of the board without a browser: ``answer`` and ``call``, one request to a
route with the token ``TOKEN`` of the ``served`` board (tests/web/conftest.py), and ``Watch``,
a page of a table: one push connection (``GET /api/tables/ID/events``) read on a thread,
keeping every raw byte and every event as it came."""
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

TOKEN = "a-board-test-token"


def answer(address, method, path, body=None, key=None):
    """The status and raw bytes of one request to the board at ``address`` with ``TOKEN``
    (``body``: sent as JSON; ``key``: a seat's key), whatever the status."""
    headers = {"Authorization": f"token {TOKEN}", "Content-Type": "application/json"}
    if key is not None:
        headers["X-Seat-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(address.rstrip("/") + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as got:
            return got.status, got.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def call(address, method, path, body=None, key=None):
    """The JSON answer of one request (``answer``) that must succeed."""
    status, raw = answer(address, method, path, body, key)
    assert status == 200, (method, path, status, raw[:300])
    return json.loads(raw)


class Watch:
    """The push connection of ``key``'s seat (None: a spectator) to table ``table`` of the
    server at ``address``, with ``headers`` added (the token's ``Authorization`` by
    default). ``status``: the answer's; ``raw``: the bytes read; ``events``: ``(time, kind,
    data)``, ``data`` the decoded JSON."""

    def __init__(self, address, table, key=None, token=None, headers=None):
        url = urlsplit(address)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        sent = {"Authorization": f"token {token}"} if token else {}
        if key is not None:
            sent["X-Seat-Key"] = key
        self.conn.request("GET", f"/api/tables/{table}/events", headers={**sent,
                                                                          **(headers or {})})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.raw, self.events = bytearray(), []
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        if self.status == 200:
            self.reader.start()
        else:
            self.raw += self.response.read()

    def _read(self):
        kind, data = None, []
        try:
            while line := self.response.readline():
                with self.changed:
                    self.raw += line
                    text = line.decode().rstrip("\n")
                    if text.startswith("event: "):
                        kind = text[7:]
                    elif text.startswith("data: "):
                        data.append(text[6:])
                    elif not text and data:
                        self.events.append((time.monotonic(), kind, json.loads("".join(data))))
                        kind, data = None, []
                        self.changed.notify_all()
        except (OSError, ValueError, http.client.HTTPException):
            pass  # closed
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    closed = False

    def views(self):
        return [data for _, kind, data in self.events if kind == "view"]

    def wait_for(self, test, timeout=60):
        """The first event ``(time, kind, data)`` that ``test`` accepts (waiting at most
        ``timeout`` seconds for it); an AssertionError if none came."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = next((e for e in self.events if test(*e)), None)
                if found is not None or self.closed:
                    break
                if not self.changed.wait(max(0.0, deadline - time.monotonic())):
                    break
        assert found is not None, f"no such event in {len(self.events)} (closed: {self.closed})"
        return found

    def close(self):
        """Hang up (the reader ends when the socket does)."""
        if self.conn.sock is not None:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        if self.reader.is_alive():
            self.reader.join(10)
        self.conn.close()
