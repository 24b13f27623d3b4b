"""The browser board's server as its own process, as a user starts it, for the benchmarks that
speak HTTP to it (``board_load``, ``first_move``)."""
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

__all__ = ["api_request", "free_port", "start_serve"]


def free_port():
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(port, token, *args, env=None, log=None, seconds=60):
    """``savanna serve *args --port PORT --token TOKEN`` (the command installed beside this
    Python), once it answers ``/api/info``. Its output goes to the file ``log``, or without
    one its standard error stays readable (``process.stderr``, text). A server that ends
    first, or does not answer within ``seconds``, is a RuntimeError (and stopped)."""
    command = Path(sys.executable).with_name("savanna")
    process = subprocess.Popen(
        [str(command), "serve", *args, "--port", str(port), "--token", token], env=env,
        stdout=log or subprocess.DEVNULL, stderr=subprocess.STDOUT if log else subprocess.PIPE,
        text=True)
    info = urllib.request.Request(f"http://127.0.0.1:{port}/api/info",
                                  headers={"Authorization": f"token {token}"})
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(info, timeout=seconds).close()
            return process
        except urllib.error.HTTPError:  # an answer all the same
            return process
        except OSError:
            if process.poll() is not None:
                output = process.stderr.read() if log is None else f"its output is in {log.name}"
                raise RuntimeError(f"savanna serve ended: {output}") from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"savanna serve did not answer in {seconds} s")


def api_request(base, method, path, body=None, *, token, key=None, seconds=120):
    """``(status, JSON)`` of one request to the server at ``base`` with its ``token`` (``key``:
    the seat's, X-Seat-Key; ``body``: JSON); an error answer is returned, not raised."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"token {token}",
               **({"X-Seat-Key": key} if key else {})}
    req = urllib.request.Request(base + path, data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=seconds) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
