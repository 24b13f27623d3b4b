"""Who may talk to ``savanna serve``: a token, a Host allow-list and an Origin check, as one ASGI
middleware in front of every route.

It follows Jupyter Server (``auth/identity.py``; ``base/handlers.py``: ``check_host``,
``check_origin``, ``check_xsrf_cookie``): a random token that the printed URL carries once
(``/?token=...`` sets an HttpOnly, SameSite=Strict cookie and redirects to ``/``), or
``Authorization: token TOKEN`` for scripts and for the page in a notebook's frame (a frame of
another site's page gets no SameSite=Strict cookie: its address brings the token in the
fragment, ``#token=...``, which no browser sends to a server, and the page's script sends it in
this header). The page itself (``/``, ``/static/``) holds no secret and, as Jupyter serves its
static files, is served without the token; every route of the API needs it. A Host header that
names this machine, an IP address when listening on every interface, or a name allowed with
``--allow-host`` (DNS rebinding); a push connection or a state-changing request whose ``Origin``
is this server's own host, whose ``Sec-Fetch-Site`` (without an Origin) is ``same-origin`` or
``none``, and whose body is JSON (a cross-site form or ``text/plain`` POST cannot send
``application/json`` without a CORS preflight, and no CORS header is ever sent). Every answer
says ``nosniff`` and ``frame-ancestors 'self'``. Where Jupyter lets a cookie session skip the
Origin check with an XSRF cookie, this server has no forms and checks the Origin of every change
instead.
"""
import hmac
import ipaddress
import json
import re
from urllib.parse import parse_qs, urlsplit

__all__ = ["Guard", "LOCAL_HOSTS", "TOKEN", "allowed_names", "url_host"]

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
COOKIE = "savanna_token"
HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?")  # name or [IPv6], port
TOKEN = re.compile(r"[A-Za-z0-9._~-]{0,256}")  # what a URL and a cookie carry as they are
SELF_ONLY = "'self'"  # the pages that may frame the board: its own (Jupyter's default)


class Guard:
    """The ASGI app ``app`` behind the checks above. ``token``: the server's token ('' turns
    the check off); ``host``: the address the server listens on; ``allow_hosts``: more names
    the Host header may carry (``NAME``: at any port, ``NAME:PORT``: at that port only, ``*``:
    any; see ``allowed_names``)."""

    def __init__(self, app, token, host="127.0.0.1", allow_hosts=(), frame_ancestors=SELF_ONLY):
        if not isinstance(token, str) or not TOKEN.fullmatch(token):
            raise ValueError("the token must be at most 256 letters, digits and . _ ~ -")
        self.app, self.token = app, token
        self.headers = [(b"x-content-type-options", b"nosniff"),
                        (b"content-security-policy",
                         f"frame-ancestors {frame_ancestors}".encode("latin-1"))]
        self.hosts = {(h.lower().strip("[]"), None) for h in (*LOCAL_HOSTS, host)}
        self.hosts |= allowed_names(allow_hosts)
        self.any_ip = host in ("0.0.0.0", "::", "")  # every interface: any address literal

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.headers]}
            await send(message)

        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            return await _answer(send_with_headers, scope, *refusal)
        if self.token and scope["path"] == "/" and "token" in _query(scope):
            return await self.login(scope, send_with_headers)
        if self.token and not public(scope) and not self.authenticated(scope, headers):
            return await _answer(send_with_headers, scope, 401, _LOGIN)
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope, headers):
        """``(status, message)`` for a request from where it may not come, else None."""
        host = headers.get("host", "")
        if not self.allowed_host(host):
            return 403, (f"Host {host[:100]!r} is not allowed: open the page at the address "
                         "savanna serve printed (savanna serve --allow-host NAME allows more)")
        if scope["method"] in SAFE_METHODS and not scope["path"].endswith("/events"):
            return None  # a push connection is checked as a change is: it carries secrets
        origin = headers.get("origin")
        if origin is not None and _netloc(origin) != host.lower():
            return 403, (f"a change from origin {origin[:100]!r} is refused: only this "
                         "server's own page may make changes")
        if origin is None and headers.get("sec-fetch-site", "none") not in ("same-origin",
                                                                             "none"):
            return 403, "a change from another site is refused"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if kind != "application/json" and has_body:
            return 415, (f"a request body must be JSON (Content-Type: application/json), got "
                         f"{kind[:100]!r}")
        return None

    def allowed_host(self, host):
        match = HOST.fullmatch(host)
        if match is None:
            return False
        name = match[1].strip("[]").lower()
        port = int(match[2]) if match[2] else 80  # what a browser leaves out
        if {("*", None), (name, None), (name, port)} & self.hosts:
            return True
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return False
        return address.is_loopback or self.any_ip

    def authenticated(self, scope, headers):
        scheme, _, given = headers.get("authorization", "").partition(" ")
        if scheme.lower() not in ("token", "bearer"):
            given = _cookies(headers).get(cookie_name(scope), "")
        return hmac.compare_digest(given.strip().encode(), self.token.encode())

    async def login(self, scope, send):
        """``/?token=...``: the cookie set and the token out of the address bar, or a 401."""
        given = _query(scope)["token"][0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return await _answer(send, scope, 401, _LOGIN)
        cookie = f"{cookie_name(scope)}={self.token}; HttpOnly; SameSite=Strict; Path=/"
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", b"/"), (b"set-cookie", cookie.encode()),
                                (b"content-length", b"0"), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": b""})


def allowed_names(texts):
    """``{(name, port or None)}`` of ``--allow-host`` values: ``NAME`` (a host name or an IP
    address, at any port), ``NAME:PORT`` (at that port), ``[IPv6]:PORT``, or ``*`` (any
    name); a one-line ValueError for anything else.

    >>> allowed_names(["Board.test:8123"]), allowed_names(["::2"])
    ({('board.test', 8123)}, {('::2', None)})
    """
    names = set()
    for text in texts:
        match = HOST.fullmatch(text) if isinstance(text, str) else None
        if text == "*" or _is_ipv6(text):
            names.add((text.lower(), None))
        elif match is None or (match[2] and not 0 < int(match[2]) < 65536):
            raise ValueError(f"--allow-host {str(text)[:100]!r}: give NAME or NAME:PORT (a host "
                             "name, an IPv4 address or an [IPv6] one; a port in 1..65535), "
                             "or * for any")
        else:
            names.add((match[1].strip("[]").lower(), int(match[2]) if match[2] else None))
    return names


def _is_ipv6(text):
    try:
        return isinstance(text, str) and ipaddress.ip_address(text).version == 6
    except ValueError:
        return False


def public(scope):
    """Whether ``scope`` asks for the page or its files (no secret in them), not the API."""
    return scope["method"] in SAFE_METHODS and (scope["path"] == "/"
                                                or scope["path"].startswith("/static/"))


def cookie_name(scope):
    """The token's cookie, one per port: browsers share cookies between the ports of a host,
    so two servers on one machine keep their own."""
    server = scope.get("server")
    return f"{COOKIE}_{server[1]}" if server and server[1] else COOKIE


def url_host(host):
    """``host`` as a URL writes it (IPv6 in brackets; every interface as 127.0.0.1)."""
    host = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    return f"[{host}]" if ":" in host else host


_LOGIN = ("this server needs its token: open the address savanna serve printed "
          "(http://HOST:PORT/?token=...), or send the header Authorization: token TOKEN")


def _netloc(url):
    """The ``host:port`` of ``url``, lower case; None where it is malformed (``http://[::1``)."""
    try:
        return urlsplit(url).netloc.lower()
    except ValueError:
        return None


def _query(scope):
    return parse_qs(scope.get("query_string", b"").decode("latin-1"))


def _cookies(headers):
    pairs = (p.strip().partition("=") for p in headers.get("cookie", "").split(";"))
    return {k: v for k, _, v in pairs if k}


async def _answer(send, scope, status, message):
    """A refusal: JSON ``{"error": ...}`` for the API, a small page for a browser."""
    if scope["path"].startswith("/api/"):
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    else:
        text = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        body = (f"<!doctype html><meta charset=utf-8><title>savanna serve</title>"
                f"<p>{text}</p>").encode()
        kind = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
