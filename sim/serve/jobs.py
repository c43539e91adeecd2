"""The job queue: one warm worker process, one job at a time, every tab sees the queue.

:class:`Jobs` owns the worker (:mod:`sim.serve.worker`, started with
``spawn``), a queue of waiting jobs and the job running. A reader thread
takes the worker's messages, updates the job and publishes them to every tab
(:class:`sim.serve.hub.Hub`). Two tabs asking at once share the worker: the
second job waits, and both tabs see it waiting.

Stop: a waiting job is taken off the queue; the running one is asked to
stop (the cancel flag its run looks at between chunks). If it has not stopped
after :data:`STOP_GRACE_S` seconds (a chunk of slow trials, a study without a
cancel), the worker is killed and a new one started; the page stays usable
either way. A worker that dies by itself is restarted the same way, and the
job it ran is reported as failed in one sentence.
"""
from __future__ import annotations

import itertools
import multiprocessing as mp
import queue
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field

#: seconds a running job has to honour Stop before its worker is killed and restarted
STOP_GRACE_S = 3.0
#: jobs kept in the list after they end (the page shows the last few)
KEEP_FINISHED = 20
#: job states that are over
OVER = ("done", "failed", "stopped")


@dataclass
class Job:
    id: str
    kind: str
    owner: str
    title: str
    payload: dict
    state: str = "queued"
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    progress: dict | None = None
    run: str | None = None
    message: str = ""

    def public(self) -> dict:
        return {"id": self.id, "kind": self.kind, "owner": self.owner, "title": self.title, "state": self.state,
                "created": self.created, "started": self.started, "finished": self.finished,
                "progress": self.progress, "run": self.run, "message": self.message,
                "trials": self.payload.get("trials"), "precision": self.payload.get("precision")}


class _Worker:
    """One incarnation of the worker process and its queues."""

    def __init__(self, generation: int):
        ctx = mp.get_context("spawn")
        self.generation = generation
        self.requests = ctx.Queue()
        self.replies = ctx.Queue()
        self.answers = ctx.Queue()
        self.cancel = ctx.Event()
        from .worker import main

        self.process = ctx.Process(target=main, args=(self.requests, self.replies, self.cancel, self.answers),
                                   name=f"sim-serve-worker-{generation}", daemon=True)
        self.process.start()
        self.ready = False

    def stop(self, timeout: float = 2.0) -> None:
        """End the process: ask, then terminate, then kill."""
        if self.process.is_alive():
            try:
                self.requests.put(None)
            except (OSError, ValueError):
                pass
            self.process.join(0.2)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout)
        for q in (self.requests, self.replies, self.answers):
            q.cancel_join_thread()
            q.close()


class Jobs:
    """The queue and the worker (module doc). ``publish(event)`` sends an event to every tab;
    ``on_finished(job)`` is called (in the reader thread) when a job ends."""

    def __init__(self, publish, on_finished=None, stop_grace: float = STOP_GRACE_S):
        self.publish = publish
        self.stop_grace = float(stop_grace)
        self.on_finished = on_finished
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self._queue: deque[Job] = deque()
        self._jobs: dict[str, Job] = {}
        self._current: Job | None = None
        self._gen = itertools.count(1)
        self._closed = False
        self._worker = _Worker(next(self._gen))
        self._reader = threading.Thread(target=self._read, name="sim-serve-reader", daemon=True)
        self._reader.start()

    # ------------------------------------------------------------ the page's side

    def submit(self, kind: str, payload: dict, owner: str = "", title: str = "") -> Job:
        with self._lock:
            job = Job(id=f"j{next(self._ids)}", kind=kind, owner=owner, title=title, payload=payload)
            self._jobs[job.id] = job
            self._queue.append(job)
            self._forget_old()
            self._next()
        self._publish_queue()
        return job

    def get(self, job_id: str) -> Job | None:
        return self._jobs.get(job_id)

    def snapshot(self) -> list[dict]:
        with self._lock:
            jobs = sorted(self._jobs.values(), key=lambda j: j.created)
            return [j.public() for j in jobs if j.kind != "warm" or j.state not in OVER]

    def stop(self, job_id: str) -> bool:
        """Stop a job (module doc); False if there is no such job still going."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job.state in OVER:
                return False
            if job in self._queue:
                self._queue.remove(job)
                self._end(job, "stopped", "stopped before it started")
                return True
            if job is self._current:
                worker = self._worker
                worker.cancel.set()
                job.message = "stopping..."
                threading.Timer(self.stop_grace, self._enforce_stop, args=(job, worker.generation)).start()
        self._publish_queue()
        return True

    def answer(self, job_id: str, go: bool) -> bool:
        """The page's answer to a job's "this will take long: go on?"."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or job is not self._current or job.state != "confirm":
                return False
            job.state = "running"
            self._worker.answers.put({"job": job_id, "go": bool(go)})
        self._publish_queue()
        return True

    def busy(self) -> bool:
        with self._lock:
            return self._current is not None or bool(self._queue)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            worker = self._worker
        worker.stop()

    # ------------------------------------------------------------ internals

    def _forget_old(self) -> None:
        over = [j for j in self._jobs.values() if j.state in OVER]
        for j in sorted(over, key=lambda j: j.created)[:-KEEP_FINISHED or None]:
            self._jobs.pop(j.id, None)

    def _next(self) -> None:
        """Send the next waiting job to the worker when it is free (lock held)."""
        if self._current is not None or not self._queue or not self._worker.ready:
            return
        job = self._queue.popleft()
        self._current = job
        job.state, job.started = "running", time.time()
        self._worker.cancel.clear()
        self._worker.requests.put({"id": job.id, "kind": job.kind, **job.payload})

    def _end(self, job: Job, state: str, message: str = "") -> None:
        job.state, job.finished = state, time.time()
        if message:
            job.message = message
        if self._current is job:
            self._current = None
        self.publish({"type": "job-end", "job": job.public()})
        if self.on_finished is not None:
            try:
                self.on_finished(job)
            except Exception as e:  # noqa: BLE001 (a hook must not stop the queue)
                print(f"sim serve: after job {job.id}: {type(e).__name__}: {e}", file=sys.stderr)

    def _publish_queue(self) -> None:
        self.publish({"type": "queue", "jobs": self.snapshot()})

    def _enforce_stop(self, job: Job, generation: int) -> None:
        with self._lock:
            if self._closed or job is not self._current or self._worker.generation != generation:
                return
            self._restart(f"the simulation did not stop within {self.stop_grace:g} s, so its process was "
                          "ended and a new one started; nothing was written", "stopped")

    def _restart(self, message: str, state: str) -> None:
        """Kill the worker, end the current job with ``state``, start a new worker (lock held)."""
        old = self._worker
        job = self._current
        self._worker = _Worker(next(self._gen))
        if job is not None:
            self._end(job, state, message)
        threading.Thread(target=old.stop, daemon=True).start()
        self.publish({"type": "notice", "text": "the simulation process was restarted", "level": "info"})
        self._publish_queue()

    def _read(self) -> None:
        """The reader thread: the worker's messages to jobs and tabs; a dead worker restarted."""
        while True:
            with self._lock:
                if self._closed:
                    return
                worker = self._worker
            try:
                msg = worker.replies.get(timeout=0.25)
            except queue.Empty:
                self._check_alive(worker)
                continue
            except (OSError, EOFError, ValueError):
                self._check_alive(worker)
                time.sleep(0.05)
                continue
            with self._lock:
                if worker is not self._worker:
                    continue  # a message of a worker already replaced
                self._handle(worker, msg)

    def _check_alive(self, worker: _Worker) -> None:
        with self._lock:
            if self._closed or worker is not self._worker or worker.process.is_alive():
                return
            code = worker.process.exitcode
            self._restart(f"the simulation process stopped unexpectedly (exit code {code}); it has been "
                          "restarted, and the details are in the terminal where `sim serve` runs", "failed")

    def _handle(self, worker: _Worker, msg: dict) -> None:
        """One message from the worker (lock held)."""
        kind = msg.get("type")
        if kind == "ready":
            worker.ready = True
            self.publish({"type": "worker", "state": "ready"})
            self._next()
            return
        if kind == "fatal":
            self.publish({"type": "notice", "level": "error",
                          "text": f"the simulation process cannot start: {msg.get('message')}"})
            return
        job = self._jobs.get(msg.get("job") or "")
        if job is None or job is not self._current:
            if kind in ("compiling", "compiled"):
                self.publish(msg)
            return
        if kind == "progress":
            job.progress = {k: msg.get(k) for k in ("done", "total", "estimate", "elapsed", "rate", "eta", "unit")}
        elif kind == "confirm":
            job.state = "confirm"
            job.message = msg.get("eta") and f"about {int(msg['eta'])} s to go"
        elif kind in ("result", "saved"):
            job.run = msg.get("run") or job.run
        elif kind == "error":
            job.message = msg.get("message", "")
            job.state = "failed"
        elif kind == "cancelled":
            job.state = "stopped"
            job.message = "stopped"
        self.publish({**msg, "owner": job.owner, "kind": job.kind})
        if kind == "done":
            state = job.state if job.state in ("failed", "stopped") else "done"
            self._end(job, state, job.message)
            self._next()
            self._publish_queue()
        elif kind in ("confirm", "error", "cancelled"):
            self._publish_queue()
