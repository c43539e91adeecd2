"""What the worker does for each kind of job (:data:`HANDLERS`), in the worker process.

* ``run``: the editor's text as ``sim run`` runs a file (:func:`sim.api.run`,
  progress and cancel callbacks), its view sent to the page as soon as the
  trials are done, then written in the ``sim run`` layout
  (:func:`sim.report.write_run`) with the text kept beside it;
* ``study``: a text with a ``study:`` block, as ``sim study`` runs it
  (:func:`sim.api.study`);
* ``warm``: a few trials of a text, nothing written, so its kernels are
  compiled (or loaded from the cache) before the first Run;
* ``paired``: the paired differences of runs or variants that share a seed
  and trials (:func:`sim.serve.compare.paired`).

Every failure reaches the page as one sentence (:func:`sentence`); an
unexpected one also prints its traceback to the server's log.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

#: texts already warmed in this process (SHA-256 of the text)
_WARMED: set[str] = set()
#: seconds between two progress messages (the first and the last are always sent)
PROGRESS_EVERY_S = 0.1
#: seconds the worker waits for the page to answer "this run would take long: go on?"
CONFIRM_WAIT_S = 300.0
#: seconds of play (compiling left out) before an ETA may ask the page to confirm: the
#: first chunks are a trial or two per thread (sim.cancel.Chunker), and an ETA from them
#: counts the warm-up as play (2 of 2,100 trials after 0.4 s said 6 minutes)
CONFIRM_AFTER_S = 1.0


def expected(e: BaseException) -> bool:
    """Whether ``e`` is a problem of the input or the output, explained by its own message."""
    from sim.report.atomic import OutputExistsError, OutputPathError, ReportWriteError
    from sim.ruleset import RuleError
    from sim.runner import RunError
    from sim.scenario import ScenarioError
    from sim.study.run import StudyError

    return isinstance(e, (ScenarioError, RunError, RuleError, StudyError, OutputExistsError, OutputPathError,
                          ReportWriteError))


def sentence(e: BaseException) -> str:
    """The page's sentence for a failure: the message of an expected problem, else what failed
    and where to read more (the traceback is in the server's log, never on the page)."""
    if expected(e):
        return str(e)
    text = " ".join(str(e).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return (f"The simulation failed ({type(e).__name__}{': ' + text if text else ''}). This is a fault in "
            "mgsim, not in your scenario; the details are in the terminal where `sim serve` runs.")


class Tracker:
    """``api.run``'s progress callback: trials done, rate and ETA to the page, a few times a
    second; and once, if the run's ETA is beyond ``confirm_over`` seconds, it asks the page
    whether to go on (no answer, or Stop, cancels the run)."""

    def __init__(self, ctx, confirm_over: float | None):
        self.ctx = ctx
        self.confirm_over = confirm_over
        self.t0 = time.perf_counter()
        self.paused = 0.0
        self.last = 0.0
        self.asked = False

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0 - self.paused

    def __call__(self, done: int, total: int, estimate: bool) -> None:
        now = time.perf_counter()
        busy = max(self.elapsed() - self.ctx.compile_s, 1e-3)
        rate = done / busy if done else 0.0
        eta = (total - done) / rate if rate > 0 else None
        if done == 0 or done >= total or now - self.last >= PROGRESS_EVERY_S:
            self.last = now
            self.ctx.send("progress", done=int(done), total=int(total), estimate=bool(estimate),
                          elapsed=round(self.elapsed(), 2), rate=round(rate, 1),
                          eta=None if eta is None else round(eta, 1))
        if (self.confirm_over and not self.asked and eta is not None and done < total
                and busy >= CONFIRM_AFTER_S and eta > self.confirm_over):
            self.asked = True
            self.ctx.send("confirm", eta=round(eta), done=int(done), total=int(total), estimate=bool(estimate))
            t = time.perf_counter()
            go = self.ctx.wait_answer(CONFIRM_WAIT_S)
            self.paused += time.perf_counter() - t
            if not go:
                self.ctx.cancel.set()


def _target(loaded, seed, results: Path) -> Path:
    """``results/<scenario>/<run id>``, checked before simulating (as ``sim run`` does)."""
    from sim import api
    from sim.report.atomic import preflight

    target = results / loaded.name / api.run_id(seed, loaded.sha256)
    preflight(target, refuse_symlink_above=results)
    return target


def run(job: dict, ctx) -> None:
    """A scenario run: progress, the view at once, then the run directory (module doc)."""
    from sim import api
    from sim.report import write_run
    from sim.scenario import load_scenario_text

    from .runs import META, write_json_atomic
    from .views import run_view

    loaded = load_scenario_text(job["text"], job["label"])
    seed = loaded.base.seed if job.get("seed") is None else int(job["seed"])
    results = Path(job["results"])
    target = _target(loaded, seed, results)
    tracker = Tracker(ctx, job.get("confirm_over"))
    result, _ = api.run(loaded, trials=job.get("trials"), precision=job.get("precision"), seed=seed,
                        write=False, progress=tracker, cancel=ctx.cancel)
    elapsed = tracker.elapsed()
    run_id = f"{loaded.name}/{target.name}"
    view = run_view(json.loads(json.dumps(result.to_dict(), default=_plain)), result.rounds, result.curves)
    total = int(result.summary["trials"].sum())
    ctx.send("result", view=view, run=run_id, elapsed=round(elapsed, 2), trials=total)
    write_run(result, target)
    write_json_atomic(target / META, {"label": job.get("run_label") or "", "text": job["text"],
                                      "file": job.get("file"), "elapsed_s": round(elapsed, 3),
                                      "compile_s": round(ctx.compile_s, 3), "trials": total})
    ctx.send("saved", run=run_id)


def _plain(o):
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "tolist"):
        return o.tolist()
    return str(o)


def study(job: dict, ctx) -> None:
    """A study, as ``sim study`` runs it; its reading, tables and charts to the page."""
    from sim import api
    from sim.scenario import load_yaml_text
    from sim.study.load import file_holding, file_kind, load_study_document

    from .runs import META, RunStore, write_json_atomic

    doc = load_yaml_text(job["text"], job["label"])
    kwargs = dict(trials=job.get("trials"), seed=job.get("seed"), results_root=job["results"], write=True,
                  progress=Tracker(ctx, job.get("confirm_over")), cancel=ctx.cancel)  # as a run's
    t0 = time.perf_counter()
    if file_kind(doc) is None:
        res = api.study(load_study_document(doc), **kwargs)
    else:  # a whole-file kind reads its file: the file itself when the text is what it holds
        with file_holding(job["text"], job.get("path"), job["label"]) as path:
            res = api.study(str(path), **kwargs)
    elapsed = time.perf_counter() - t0
    out = Path(res.out_dir)
    write_json_atomic(out / META, {"label": job.get("run_label") or "", "text": job["text"],
                                   "file": job.get("file"), "elapsed_s": round(elapsed, 3),
                                   "compile_s": round(ctx.compile_s, 3)})
    run_id = f"{out.parent.name}/{out.name}"
    view = RunStore(Path(job["results"])).view(run_id)
    ctx.send("result", view=view, run=run_id, elapsed=round(elapsed, 2))
    ctx.send("saved", run=run_id)


def warm(job: dict, ctx) -> None:
    """Compile (or load) the kernels a text uses: two trials of every variant, nothing written."""
    import hashlib

    from sim import api
    from sim.scenario import load_document, load_yaml_text
    from sim.study.load import file_kind, load_study_document

    key = hashlib.sha256(job["text"].encode("utf-8", "surrogatepass")).hexdigest()
    if key in _WARMED:
        return
    doc = load_yaml_text(job["text"], job["label"])
    if "study" in doc.data:
        if file_kind(doc) is not None:
            return
        loaded = load_study_document(doc).loaded
    else:
        loaded = load_document(doc)
    api.run(loaded, trials=2, max_trials=2, write=False, cancel=ctx.cancel)
    _WARMED.add(key)
    ctx.send("warm", system=loaded.system)


def paired(job: dict, ctx) -> None:
    """Paired differences of the ticked runs or variants (:func:`sim.serve.compare.paired`)."""
    from .compare import paired_groups

    ctx.send("result", paired=paired_groups(job["groups"], ctx))


HANDLERS = {"run": run, "study": study, "warm": warm, "paired": paired}
