"""How ``savanna serve`` listens: a port taken before anything is printed (the next free one
when it is busy, as Jupyter Server does), a uvicorn server that says when it is ready, and a
deadline for each request's headers.

uvicorn's keep-alive timeout stops at a connection's first byte and starts again only after an
answer, so a client that sends half a request (slowloris) would hold its connection, and a
place in the server, for ever; ``HeaderDeadline`` closes a connection whose request line and
headers have not all arrived ``HEADER_SECONDS`` after it opened or after its last answer.
"""
import errno
import socket

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_SECONDS", "PORT_TRIES", "HeaderDeadline", "ReadyServer", "free_socket"]

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


class ReadyServer(uvicorn.Server):
    """A uvicorn server that calls ``ready()`` once it listens, the app started."""

    def __init__(self, config, ready):
        super().__init__(config)
        self.ready = ready

    async def startup(self, sockets=None):
        await super().startup(sockets)
        if self.started:
            self.ready()


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
