"""``sim serve``: the designer's workbench, a local web page to edit, run and compare.

One command (``sim serve [FILE|DIR] [--port N] [--no-browser]``) starts a
small web server on 127.0.0.1 (never another address), prints its address
and opens it in the browser. The page edits a scenario with the loader's
errors at their lines, runs it in a warm worker process with progress and
Stop, shows the results table and the chart that answers it, keeps every run
in the ``sim run`` layout under ``results/``, and compares runs side by side
with their paired differences. Everything it loads ships in the package
(:data:`sim.serve.app.STATIC`): it works with the network unplugged.

Modules: :mod:`.app` (routes), :mod:`.safety` (Host/Origin checks, CSP),
:mod:`.paths` (paths under the folder served), :mod:`.files` (open, save,
watch), :mod:`.checks` (the loader's verdict), :mod:`.jobs` (queue and
worker), :mod:`.worker` and :mod:`.tasks` (the worker process), :mod:`.hub`
(server-sent events), :mod:`.runs` (the history), :mod:`.views` and
:mod:`.charts` (what the page draws), :mod:`.compare`, :mod:`.knobs`.
Reference: ``docs/serve.md``.
"""
from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import quote

#: the port tried first when none is given (then the next ones)
DEFAULT_PORT = 8765
PORT_TRIES = 20


class ServeError(ValueError):
    """A problem with ``sim serve``'s arguments (a missing file, a busy port)."""


def where(target: str | None, cwd: Path | None = None) -> tuple[Path, str | None]:
    """``(folder served, file opened first)`` for ``sim serve [FILE|DIR]``.

    No argument: the current folder. A folder: that folder. A file: the current
    folder when the file is inside it (so ``sim serve scenarios/quickstart.yaml``
    serves the whole checkout), else the file's own folder.
    """
    cwd = Path(os.path.realpath(cwd or Path.cwd()))
    if target is None:
        return cwd, None
    p = Path(os.path.realpath(target))
    if p.is_dir():
        return p, None
    if not p.is_file():
        raise ServeError(f"{target}: no such file or folder")
    if p.suffix.lower() not in (".yaml", ".yml"):
        raise ServeError(f"{target}: not a scenario file (.yaml or .yml)")
    try:
        return cwd, p.relative_to(cwd).as_posix()
    except ValueError:
        return p.parent, p.name


def bind(port: int | None) -> socket.socket:
    """A listening socket on 127.0.0.1: ``port``, or :data:`DEFAULT_PORT` and the next free one."""
    tries = [port] if port is not None else [DEFAULT_PORT + k for k in range(PORT_TRIES)]
    last = None
    for p in tries:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", p))
        except OSError as e:
            s.close()
            last = e
            continue
        s.listen(64)
        return s
    if port is not None:
        raise ServeError(f"port {port} on 127.0.0.1 is in use ({last.strerror if last else 'busy'}); "
                         "choose another with --port")
    raise ServeError(f"ports {tries[0]}-{tries[-1]} on 127.0.0.1 are all in use; choose one with --port")


def examples_dir() -> Path | None:
    """The bundled scenarios (a source checkout's ``scenarios/``), if present."""
    from sim.warmup import SCENARIOS

    return SCENARIOS if SCENARIOS.is_dir() else None


def serve(target: str | None = None, port: int | None = None, open_browser: bool = True,
          results: str | os.PathLike = "results", announce=None) -> int:
    """Run the workbench until Ctrl-C (module doc). ``results``: where runs are kept
    (``results/`` of the current folder, as ``sim run``). ``announce(url)`` is called once
    the server listens (default: print it)."""
    import threading

    import uvicorn

    from .app import Config, build_app

    root, first = where(target)
    sock = bind(port)
    port = sock.getsockname()[1]
    results = Path(os.path.realpath(results))
    config = Config(root=root, results=results, examples=examples_dir(), first=first, port=port)
    app, _ = build_app(config)
    url = f"http://127.0.0.1:{port}/" + (f"#file={quote(first)}" if first else "")
    (announce or (lambda u: print(f"sim serve: {u}\n  folder {root}; runs kept in {results}\n"
                                  "  press Ctrl-C to stop", flush=True)))(url)
    if open_browser:
        import webbrowser

        threading.Timer(0.5, lambda: webbrowser.open(url)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", access_log=False,
                                           timeout_graceful_shutdown=2, ws="none"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down cleanly, then passes Ctrl-C on
        pass
    finally:
        sock.close()
    print("sim serve: stopped", flush=True)
    return 0
