"""The simulation process: one warm worker that runs the page's jobs, one at a time.

The server starts it once (:class:`sim.serve.jobs.Jobs`) with the ``spawn``
method, so it imports numba and the rule systems in a clean process, loads
their compiled kernels and keeps them: a run asked for from the page pays
neither the imports nor the kernel loading. A crash, a hang or a Stop that
the run does not honour in time costs only this process: the server kills it
and starts another.

Messages (plain dicts through multiprocessing queues):

* in (``requests``): a job ``{"id", "kind", ...}`` (kinds in
  :data:`sim.serve.tasks.HANDLERS`), or ``None`` to stop;
* out (``replies``): ``{"job", "type", ...}`` with ``type`` one of
  ``ready`` (started and imported), ``started``, ``progress``, ``compiling``,
  ``compiled``, ``confirm`` (the run would take long: go on?), ``result``,
  ``saved``, ``error``, ``cancelled`` and ``done`` (the last message of a job).

``cancel`` (a multiprocessing Event) is the page's Stop: the run looks at it
between chunks (``api.run(cancel=...)``). ``answers`` carries the page's reply
to a ``confirm``.
"""
from __future__ import annotations

import sys
import time
import traceback


class Context:
    """What a job handler needs: the queues, the cancel flag and the current job."""

    def __init__(self, replies, cancel, answers):
        self.replies = replies
        self.cancel = cancel
        self.answers = answers
        self.job: dict | None = None
        self.compile_s = 0.0  # seconds spent compiling during the current job

    def send(self, type_: str, **data) -> None:
        self.replies.put({"job": self.job["id"] if self.job else None, "type": type_, "t": time.time(), **data})

    def wait_answer(self, timeout: float) -> bool:
        """The page's answer to a ``confirm`` (False if Stop is pressed or nobody answers in time)."""
        import queue

        end = time.monotonic() + timeout
        while time.monotonic() < end and not self.cancel.is_set():
            try:
                answer = self.answers.get(timeout=0.2)
            except queue.Empty:
                continue
            if answer.get("job") == (self.job or {}).get("id"):
                return bool(answer.get("go"))
        return False


def _compile_listener(ctx: Context):
    """A numba compile listener that tells the page when kernels compile (and for how long):
    :class:`sim.notice.CompileNotice`'s timing (a compile announced after 1 s), its family
    names ("Magical Burst 4.1"), and messages to the page instead of lines on stderr."""
    from sim.notice import CompileNotice

    class PageNotice(CompileNotice):
        def _say(self):
            self.said = True
            family = self.label.split(" kernels", 1)[0]
            ctx.send("compiling", family=family, text=f"compiling the {family} engine: first time only, "
                     "about a minute (it is kept for every later run)")

        def _finish(self):
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
                seconds = time.perf_counter() - self.t0
                ctx.compile_s += seconds
                if self.said:
                    ctx.send("compiled", seconds=round(seconds, 1))

    return PageNotice()


def main(requests, replies, cancel, answers) -> None:
    """The worker's loop (the target of the spawned process)."""
    ctx = Context(replies, cancel, answers)
    try:
        from numba.core import event

        from sim import api  # noqa: F401  (imports numba, the loader, the runner: paid once here)

        from . import tasks

        event.register("numba:compile", _compile_listener(ctx))
    except BaseException as e:  # cannot even import: say why, the server reports it
        replies.put({"job": None, "type": "fatal", "message": f"{type(e).__name__}: {e}"})
        raise
    replies.put({"job": None, "type": "ready", "t": time.time()})
    while True:
        job = requests.get()
        if job is None:
            break
        ctx.job, ctx.compile_s = job, 0.0
        ctx.send("started")
        try:
            tasks.HANDLERS[job["kind"]](job, ctx)
        except KeyboardInterrupt:  # RunCancelled is one
            ctx.send("cancelled", message="stopped")
        except Exception as e:  # noqa: BLE001 (reported as a sentence; the traceback goes to the log)
            ctx.send("error", message=tasks.sentence(e))
            if not tasks.expected(e):
                print(f"sim serve: job {job.get('id')} ({job.get('kind')}) failed:", file=sys.stderr)
                traceback.print_exc()
                sys.stderr.flush()
        finally:
            ctx.send("done")
            ctx.job = None

