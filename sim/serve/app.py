"""The web app: routes of ``sim serve`` (Starlette), each a thin call into the modules.

Pages and files: ``/`` (the workbench), ``/static/...`` (its bundled script
and style), ``/runs/<scenario>/<run id>/<file>`` (a kept run's report and
files). The JSON API under ``/api/`` (docs/serve.md lists it): files (list,
read, save), ``check`` (the loader's verdict on the editor's text), ``run``,
``warm``, jobs (stop, answer), runs (list, view, label, delete, text),
``compare``, ``knobs``, ``play`` (one seeded fight, event by event) and ``events`` (the server-sent events stream).

Every answer passes :class:`sim.serve.safety.Guard` (Host and Origin checks,
Content-Security-Policy). Errors are one sentence (``{"error": ...}``).
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import checks, compare, knobs, play
from .files import FileError, Files, Watcher, sha
from .hub import Hub, dumps
from .jobs import STOP_GRACE_S, Jobs
from .paths import PathRefused
from .runs import RunStore
from .safety import Guard

STATIC = Path(__file__).resolve().parent / "static"
#: a run whose estimated time is beyond this many seconds asks first
CONFIRM_OVER_S = 120.0
#: largest request body, in bytes (a scenario is at most 1 MiB)
MAX_BODY = 2 << 20


def _env_seconds(name: str, default: float) -> float:
    """A duration from the environment (the tests shorten the waits), else ``default``."""
    try:
        v = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return v if v > 0 else default


@dataclass
class Config:
    """``root``: the folder served (real path); ``results``: where runs are kept;
    ``examples``: the bundled scenarios (or None); ``first``: the file opened first."""

    root: Path
    results: Path
    examples: Path | None = None
    first: str | None = None
    confirm_over: float = field(default_factory=lambda: _env_seconds("MGSIM_SERVE_CONFIRM_OVER", CONFIRM_OVER_S))
    stop_grace: float = field(default_factory=lambda: _env_seconds("MGSIM_SERVE_STOP_GRACE", STOP_GRACE_S))
    port: int = 0


class State:
    """Everything the routes share: the files, the runs, the jobs and the event hub."""

    def __init__(self, config: Config):
        self.config = config
        self.hub = Hub()
        self.files = Files(config.root, config.examples)
        self.runs = RunStore(config.results)
        self.watcher: Watcher | None = None
        self.jobs: Jobs | None = None
        self.rates: dict[str, float] = {}  # scenario name -> trials per second measured here
        self.last_warm: dict | None = None

    def start(self) -> None:
        self.watcher = Watcher(self.files, self.hub.publish)
        self.jobs = Jobs(self.hub.publish, self.finished, self.config.stop_grace)
        for e in self.runs.list():
            if e["kind"] == "run" and e.get("elapsed_s") and e.get("trials"):
                self.rates.setdefault(e["scenario"], sum(e.get("trials_each") or [0]) / max(e["elapsed_s"], 1e-3))

    def close(self) -> None:
        if self.jobs is not None:
            self.jobs.close()
        if self.watcher is not None:
            self.watcher.close()

    def finished(self, job) -> None:
        """A job ended: remember the run's speed (the next estimate), tell the tabs the history moved."""
        p = job.progress or {}
        if job.kind == "run" and job.state == "done" and p.get("rate"):
            self.rates[job.title] = float(p["rate"])
        if job.run:
            self.hub.publish({"type": "runs"})


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(message)}, status_code=status)


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise FileError(f"the request is larger than {MAX_BODY:,} bytes", 413)
    import json

    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise FileError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise FileError("the request must be a JSON object")
    return data


def _json(data, status: int = 200) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json")


def _st(request: Request) -> State:
    return request.app.state.mgsim


def _guarded(handler):
    """Turn the expected failures of a handler into ``{"error": sentence}`` answers."""
    async def wrapped(request: Request):
        try:
            return await handler(request, _st(request))
        except PathRefused as e:
            return _error(str(e), 403 if "refused" in str(e) else 404)
        except FileError as e:
            return _error(str(e), e.status)
        except (ValueError, KeyError) as e:
            return _error(str(e) if isinstance(e, ValueError) else f"missing field {e}")

    return wrapped


# ---------------------------------------------------------------- pages


async def index(request: Request):
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def run_file(request: Request):
    st = _st(request)
    try:
        path = st.runs.file(f"{request.path_params['scenario']}/{request.path_params['rid']}",
                            request.path_params["name"])
    except PathRefused as e:
        return Response(str(e), status_code=404, media_type="text/plain")
    return FileResponse(path)


# ---------------------------------------------------------------- files and checks


@_guarded
async def state(request: Request, st: State):
    return _json({"files": st.files.listing(), "runs": st.runs.list(), "queue": st.jobs.snapshot(),
                  "first": st.config.first, "confirm_over": st.config.confirm_over,
                  "results": str(st.config.results)})


@_guarded
async def files_list(request: Request, st: State):
    return _json(st.files.listing())


@_guarded
async def file_read(request: Request, st: State):
    rel = request.query_params.get("path", "")
    info = await run_in_threadpool(st.files.read, rel)
    st.watcher.watch(rel)
    info.pop("real", None)
    return _json(info)


@_guarded
async def file_save(request: Request, st: State):
    body = await _body(request)
    info = await run_in_threadpool(st.files.save, body["path"], str(body["text"]), body.get("base_sha"))
    st.watcher.watch(body["path"])
    st.hub.publish({"type": "files"})
    return _json(info)


@_guarded
async def check(request: Request, st: State):
    body = await _body(request)
    return _json(await run_in_threadpool(checks.check_text, str(body["text"]), _label(body)))


def _label(body: dict) -> str:
    """How messages name the text: the file's path relative to the folder served, as ``sim validate``."""
    label = body.get("path") or body.get("label") or "editor.yaml"
    return str(label)[:200]


# ---------------------------------------------------------------- jobs


def _int_or_none(v, name: str, lo: int, hi: int):
    if v in (None, ""):
        return None
    try:
        x = int(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a whole number, got {v!r}") from None
    if not lo <= x <= hi:
        raise ValueError(f"{name} must be from {lo:,} to {hi:,}, got {x:,}")
    return x


def _run_options(body: dict) -> dict:
    trials = _int_or_none(body.get("trials"), "trials", 1, 10**9)
    seed = _int_or_none(body.get("seed"), "seed", 0, 2**63 - 1)
    precision = body.get("precision")
    if precision in (None, ""):
        precision = None
    else:
        try:
            precision = float(precision)
        except (TypeError, ValueError):
            raise ValueError(f"precision must be a number such as 0.005, got {precision!r}") from None
        if not 0 < precision < 0.5:
            raise ValueError(f"precision must be a half-width between 0 and 0.5 (such as 0.005), got {precision}")
    return {"trials": trials, "seed": seed, "precision": precision}


async def _checked(request: Request) -> tuple[dict, str, str, dict]:
    """``(body, text, label, check)`` of a request that sends the editor's text."""
    body = await _body(request)
    text, label = str(body["text"]), _label(body)
    return body, text, label, await run_in_threadpool(checks.check_text, text, label)


def _owner(body: dict) -> str:
    return str(body.get("client") or "")[:64]


@_guarded
async def run(request: Request, st: State):
    body, text, label, info = await _checked(request)
    if not info["ok"]:
        return _json({"check": info, "error": info["message"]}, 400)
    opts = _run_options(body)
    kind = "study" if info["kind"] == "study" else "run"
    trials = opts["trials"] or info["trials"]
    rate = st.rates.get(info["name"])
    if kind == "run" and not body.get("confirmed") and rate and opts["precision"] is None:
        eta = trials * max(1, len(info["variants"])) / rate
        if eta > st.config.confirm_over:
            return _json({"confirm": {"eta": round(eta), "trials": trials, "variants": len(info["variants"])}})
    path = None
    if body.get("path"):
        with contextlib.suppress(PathRefused):
            path = str(st.files.locate(body["path"])[0])
    payload = {"text": text, "label": label, "file": body.get("path"), "path": path,
               "results": str(st.config.results), "run_label": str(body.get("run_label") or "")[:120],
               "confirm_over": None if body.get("confirmed") else st.config.confirm_over, **opts}
    job = st.jobs.submit(kind, payload, owner=_owner(body), title=info["name"])
    return _json({"job": job.public(), "check": info})


@_guarded
async def warm(request: Request, st: State):
    body, text, label, info = await _checked(request)
    if not info["ok"]:
        return _json({"warm": False})
    key = sha(text)
    waiting = [j for j in st.jobs.snapshot() if j["kind"] == "warm"]
    if any(j["title"] == key for j in waiting):
        return _json({"warm": True})
    payload = {"text": text, "label": label}
    st.last_warm = payload
    st.jobs.submit("warm", payload, owner=_owner(body), title=key)
    return _json({"warm": True, "system": info["system"]})


@_guarded
async def job_stop(request: Request, st: State):
    return _json({"stopped": st.jobs.stop(request.path_params["job"])})


@_guarded
async def job_answer(request: Request, st: State):
    body = await _body(request)
    return _json({"ok": st.jobs.answer(request.path_params["job"], bool(body.get("go")))})


# ---------------------------------------------------------------- runs


def _rid(request: Request) -> str:
    return f"{request.path_params['scenario']}/{request.path_params['rid']}"


@_guarded
async def runs_list(request: Request, st: State):
    return _json({"runs": await run_in_threadpool(st.runs.list)})


@_guarded
async def run_view(request: Request, st: State):
    return _json(await run_in_threadpool(st.runs.view, _rid(request)))


@_guarded
async def run_label(request: Request, st: State):
    body = await _body(request)
    entry = await run_in_threadpool(st.runs.set_label, _rid(request), str(body.get("label") or ""))
    st.hub.publish({"type": "runs"})
    return _json(entry)


@_guarded
async def run_delete(request: Request, st: State):
    await run_in_threadpool(st.runs.delete, _rid(request))
    st.hub.publish({"type": "runs"})
    return _json({"deleted": _rid(request)})


@_guarded
async def run_text(request: Request, st: State):
    text, file = await run_in_threadpool(st.runs.text, _rid(request))
    if text is None:
        return _error("the scenario text of this run is not kept (it was run from the command line and its "
                      "file has changed since)", 404)
    return _json({"text": text, "file": file})


@_guarded
async def compare_runs(request: Request, st: State):
    body = await _body(request)
    items = [{"run": str(i["run"]), "variant": str(i["variant"])} for i in body.get("items") or []][:compare.MAX_ITEMS]
    rows = await run_in_threadpool(compare.side_by_side, st.runs, items)
    diff = await run_in_threadpool(compare.yaml_diff, st.runs, [i["run"] for i in items])
    groups = await run_in_threadpool(compare.plan, st.runs, items)
    out = {"rows": rows, "diff": diff, "groups": [{"variant": g["variant"], "reason": g["reason"]} for g in groups],
           "job": None}
    if any(g["items"] for g in groups):
        job = st.jobs.submit("paired", {"groups": groups}, owner=_owner(body),
                             title="paired comparison")
        out["job"] = job.id
    return _json(out)


@_guarded
async def knobs_read(request: Request, st: State):
    body = await _body(request)
    return _json(await run_in_threadpool(knobs.knobs, str(body["text"]), _label(body)))


@_guarded
async def knobs_variant(request: Request, st: State):
    from sim.scenario import ScenarioError

    body = await _body(request)
    changes = body.get("changes") or {}
    if not isinstance(changes, dict):
        raise ValueError("changes must map set: paths to values")
    try:
        text, name = knobs.add_variant(str(body["text"]), changes, body.get("name"), _label(body))
    except ScenarioError as e:
        return _error(str(e))
    info = await run_in_threadpool(checks.check_text, text, _label(body))
    return _json({"text": text, "name": name, "check": info})


# ---------------------------------------------------------------- one fight


@_guarded
async def play_fight(request: Request, st: State):
    """One seeded fight of the editor's text, event by event (:mod:`sim.serve.play`)."""
    body = await _body(request)
    trial = _int_or_none(body.get("trial"), "trial", 0, 10**9) or 0
    seed = _int_or_none(body.get("seed"), "seed", 0, 2**63 - 1)
    variant = body.get("variant") or None
    out = await run_in_threadpool(play.play_text, str(body["text"]), _label(body),
                                  None if variant is None else str(variant)[:200], trial, seed)
    return _json(out) if out["ok"] else _error(out["message"])


# ---------------------------------------------------------------- events


async def events(request: Request):
    st = _st(request)
    first = [{"type": "queue", "jobs": st.jobs.snapshot()}]
    return StreamingResponse(st.hub.stream(first, request.is_disconnected), media_type="text/event-stream",
                             headers={"X-Accel-Buffering": "no"})


def routes() -> list:
    return [
        Route("/", index),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/runs/{scenario}/{rid}/{name}", run_file),
        Route("/api/state", state),
        Route("/api/files", files_list),
        Route("/api/file", file_read, methods=["GET"]),
        Route("/api/file", file_save, methods=["PUT"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/run", run, methods=["POST"]),
        Route("/api/warm", warm, methods=["POST"]),
        Route("/api/jobs/{job}/stop", job_stop, methods=["POST"]),
        Route("/api/jobs/{job}/answer", job_answer, methods=["POST"]),
        Route("/api/runs", runs_list),
        Route("/api/runs/{scenario}/{rid}", run_view, methods=["GET"]),
        Route("/api/runs/{scenario}/{rid}", run_delete, methods=["DELETE"]),
        Route("/api/runs/{scenario}/{rid}/label", run_label, methods=["POST"]),
        Route("/api/runs/{scenario}/{rid}/text", run_text),
        Route("/api/compare", compare_runs, methods=["POST"]),
        Route("/api/knobs", knobs_read, methods=["POST"]),
        Route("/api/knobs/variant", knobs_variant, methods=["POST"]),
        Route("/api/play", play_fight, methods=["POST"]),
        Route("/api/events", events),
    ]


def build_app(config: Config):
    """The ASGI app (wrapped in :class:`~sim.serve.safety.Guard`) and its shared :class:`State`."""
    st = State(config)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        import asyncio

        st.hub.bind(asyncio.get_running_loop())
        st.start()
        if config.first:
            with contextlib.suppress(FileError, PathRefused, OSError):
                info = st.files.read(config.first)
                if checks.check_text(info["text"], config.first)["ok"]:
                    st.jobs.submit("warm", {"text": info["text"], "label": config.first}, title=info["sha"])
        try:
            yield
        finally:
            st.close()

    app = Starlette(routes=routes(), lifespan=lifespan)
    app.state.mgsim = st
    return Guard(app, lambda: config.port), st
