"""How ``savanna serve`` listens: a port taken before anything is printed (the next free one
when it is busy, as Jupyter Server does), the address it gives others (``shared_url``), a
uvicorn server that says when it is ready, a deadline for each request's headers, and its
settings (``server_config``).

uvicorn's keep-alive timeout stops at a connection's first byte and starts again only after an
answer, so a client that sends half a request (slowloris) would hold its connection, and a
place in the server, for ever; ``HeaderDeadline`` closes a connection whose request line and
headers have not all arrived ``HEADER_SECONDS`` after it opened or after its last answer.
"""
import errno
import ipaddress
import logging
import socket
import sys
from urllib.parse import urlsplit

import h11
import uvicorn
from uvicorn.logging import DefaultFormatter
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_SECONDS", "PORT_TRIES", "HeaderDeadline", "ReadyServer", "free_socket",
           "is_loopback", "machine_addresses", "server_config", "shared_url"]

HEADER_SECONDS = 10.0  # a request's line and headers arrive within this, or it is closed
PORT_TRIES = 10        # the given port and the next ones tried when it is busy


def free_socket(host, port):
    """A TCP socket bound at ``host`` and ``port``, or the next free port after it (at most
    ``PORT_TRIES`` in all); a one-line ValueError when none is free or ``host`` is no address
    of this machine."""
    last = min(port + PORT_TRIES, 65536) - 1
    for tried in range(port, last + 1):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            sock.bind((host, tried))
            return sock
        except OSError as err:
            sock.close()
            if err.errno != errno.EADDRINUSE:
                raise ValueError(f"cannot listen on {host} port {tried}: "
                                 f"{err.strerror or err}") from None
    raise ValueError(f"ports {port}..{last} of {host} are all in use: choose another with "
                     "--port")


def shared_url(host, port, public_url=None):
    """The address other machines reach the server at, which it prints and builds every
    invitation and spectator link on (as Jupyter Server's ``custom_display_url``):
    ``public_url`` when given (a proxy, a tunnel), else, listening beyond this machine, the
    ``host`` it listens on or, for every interface, this machine's first non-loopback address;
    None where the server listens on loopback only (its links then work on this machine
    only, and the page says so) or no other address is found.

    >>> shared_url("0.0.0.0", 8000, "https://board.example/")
    'https://board.example/'
    >>> shared_url("127.0.0.1", 8000) is None
    True
    """
    if public_url is not None:
        url = urlsplit(public_url)
        if url.scheme not in ("http", "https") or not url.hostname or url.query or url.fragment:
            raise ValueError(f"--public-url must be an http:// or https:// address with a host "
                             f"and no query, like http://192.0.2.7:8000/, got {public_url[:100]!r}")
        return public_url.rstrip("/") + "/"
    if is_loopback(host):
        return None
    if host in ("0.0.0.0", "::", ""):
        found = machine_addresses(6 if host == "::" else 4)
        if not found:
            return None
        host = found[0]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def is_loopback(host):
    """Whether ``host`` (a name or an address) is this machine only."""
    if host.lower().strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def machine_addresses(version=4):
    """This machine's non-loopback IP addresses of IP ``version``: those of its host name, and
    the one its default route leaves from (a UDP socket connected, which sends nothing)."""
    family = socket.AF_INET if version == 4 else socket.AF_INET6
    found = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
        found += [info[4][0] for info in infos]
    except OSError:
        pass
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:  # a documentation address (RFC 5737, 3849): only the route is looked up
            probe.connect(("192.0.2.1" if version == 4 else "2001:db8::1", 9))
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    return [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback
            and not ipaddress.ip_address(a).is_link_local]


def server_config(app, **settings):
    """uvicorn's settings for ``app``: its warnings and errors on stderr, as uvicorn prints
    them, without its logging set-up (``logging.config.dictConfig``, which closes every logging
    handler of the process: a notebook kernel's, a test runner's)."""
    server_log = logging.getLogger("uvicorn")
    if not server_log.handlers:
        server_log.addHandler(_Stderr())
        server_log.propagate = False  # as uvicorn's own set-up: printed once
    return uvicorn.Config(app, **{"log_config": None, "log_level": "warning", **settings})


class _Stderr(logging.StreamHandler):
    """Writes to ``sys.stderr`` as it is at each line (a notebook's or a test's capture)."""

    def __init__(self):
        logging.Handler.__init__(self)
        self.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s"))

    @property
    def stream(self):
        return sys.stderr


class ReadyServer(uvicorn.Server):
    """A uvicorn server that calls ``ready()`` once it listens, the app started, and
    ``stopping()`` as it begins to stop (before it waits for the open answers: the board's
    push connections, which would otherwise hold it for the whole grace period and then be
    cancelled, each with a traceback)."""

    def __init__(self, config, ready, stopping=lambda: None):
        super().__init__(config)
        self.ready, self.stopping = ready, stopping

    async def startup(self, sockets=None):
        await super().startup(sockets)
        if self.started:
            self.ready()

    async def shutdown(self, sockets=None):
        self.stopping()
        await super().shutdown(sockets)


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, with the deadline of the module docstring."""

    seconds = HEADER_SECONDS

    def connection_made(self, transport):
        super().connection_made(transport)
        self.deadline = None
        self._arm()

    def on_response_complete(self):
        super().on_response_complete()
        self._arm()  # for the next request's headers

    def connection_lost(self, exc):
        self.deadline.cancel()
        super().connection_lost(exc)

    def _arm(self):
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = self.loop.call_later(self.seconds, self._expired)

    def _expired(self):
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()  # no answer: the client is not listening for one
