"""The server's guard: only this machine's own pages may talk to it.

``sim serve`` binds 127.0.0.1 only, so no other machine can connect. A web
page from elsewhere can still make the *browser* send requests to
127.0.0.1 (DNS rebinding, cross-site posts), so :class:`Guard`, an ASGI
middleware in front of every route:

* refuses a request whose ``Host`` header is not ``127.0.0.1:PORT`` or
  ``localhost:PORT`` (a rebinding page sends its own host name): 403;
* refuses a state-changing request (not GET/HEAD) whose ``Origin`` is present
  and is not this server's: 403;
* adds to every answer a Content-Security-Policy that lets the page load
  scripts, styles, images and connections from this origin only (no other
  origin, no inline script, no ``eval``: the charts use Vega's CSP-safe
  expression interpreter), forbids framing, and turns off MIME sniffing and
  the referrer.
"""
from __future__ import annotations

#: the workbench page: everything from this origin, nothing else
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
#: a run's report.html: inline styles and embedded images, no script at all
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
              "frame-ancestors 'self'; base-uri 'none'; form-action 'none'")

SAFE_METHODS = ("GET", "HEAD")


def allowed_hosts(port: int) -> set[str]:
    """The ``Host`` values a request may carry."""
    return {f"127.0.0.1:{port}", f"localhost:{port}"}


class Guard:
    """ASGI middleware: the Host and Origin checks and the security headers (module doc)."""

    def __init__(self, app, port_of):
        self.app = app
        self.port_of = port_of  # a function: the port is known once the socket is bound

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        hosts = allowed_hosts(self.port_of())
        host = headers.get("host", "")
        if host not in hosts:
            return await _refuse(send, f"refused: this server answers only to 127.0.0.1:{self.port_of()} "
                                       f"(the request named host {host[:80]!r})")
        origin = headers.get("origin")
        if scope.get("method", "GET") not in SAFE_METHODS and origin is not None \
                and origin not in {f"http://{h}" for h in hosts}:
            return await _refuse(send, "refused: a page from another origin may not change anything here")
        path = scope.get("path", "")
        csp = REPORT_CSP if path.startswith("/runs/") else PAGE_CSP

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                extra = [(b"content-security-policy", csp.encode()),
                         (b"x-content-type-options", b"nosniff"),
                         (b"referrer-policy", b"no-referrer"),
                         (b"cache-control", b"no-store")]
                if not path.startswith("/runs/"):
                    extra.append((b"x-frame-options", b"DENY"))
                message = dict(message, headers=list(message.get("headers", [])) + extra)
            await send(message)

        return await self.app(scope, receive, send_with_headers)


async def _refuse(send, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
