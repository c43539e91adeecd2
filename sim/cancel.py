"""Stopping long work within seconds: one mechanism for Ctrl-C and a cancel flag.

A run or a study plays its trials in chunks. Two things keep a stop prompt:

* **chunks sized from the measured cost of a trial** (:class:`Chunker`): the
  first chunk holds one trial per thread; each next one grows (at most
  :data:`GROWTH` times) toward :data:`TARGET_S` seconds of work, never above
  the caller's cap. A cheap trial soon runs in chunks of the cap (2^18 for
  ``sim run``); a trial of a second runs a few at a time. Counters add and
  trial ``i`` always uses the streams keyed by ``i``, so results are the same
  for any chunking;
* **the chunk runs in a worker thread** (:func:`call`; the kernels release
  the GIL) while the calling thread waits in Python, where Ctrl-C
  (``KeyboardInterrupt``) arrives at once and where ``cancel`` (a
  :class:`threading.Event` or a function, :func:`requested`) is looked at
  every :data:`POLL_S` seconds. Either one *trips* the stop cells
  (:func:`stop_cell`: int64 array cells a kernel reads between units of work,
  the card game's search between iterations), waits for the chunk to end and
  raises :class:`Stopped`. A chunk that ended with no stop cell tripped is
  whole and is handed over in :attr:`Stopped.result` (the caller keeps it); a
  tripped chunk was cut short and is dropped.

While a chunk runs, ``heartbeat(seconds)`` is called every
:data:`HEARTBEAT_S` seconds (progress lines from inside a long chunk).
"""
from __future__ import annotations

import contextlib
import queue
import threading
import time

#: seconds of work a chunk aims at (the latency of a stop)
TARGET_S = 0.5
#: most a chunk grows from one to the next
GROWTH = 8
#: seconds between two looks at ``cancel`` while a chunk runs
POLL_S = 0.05
#: seconds between two heartbeats while a chunk runs
HEARTBEAT_S = 5.0
#: seconds a stop waits for the chunk in progress, at least (:meth:`Chunker.grace`)
GRACE_S = 2.0


def requested(cancel) -> bool:
    """Whether ``cancel`` asks to stop: ``None`` (never), an object with
    ``is_set()`` (a :class:`threading.Event`) or a function returning a bool."""
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    return bool(is_set() if is_set is not None else cancel())


_NONE = object()


class Stopped(KeyboardInterrupt):
    """Work stopped by Ctrl-C or a cancel. ``result``: the chunk in progress when it
    ended whole (else absent: :attr:`has_result` is false); ``by_signal``: Ctrl-C."""

    def __init__(self, result=_NONE, by_signal: bool = False):
        super().__init__("stopped")
        self.result = result
        self.by_signal = by_signal

    @property
    def has_result(self) -> bool:
        return self.result is not _NONE


class Chunker:
    """Chunk sizes that follow the measured cost of a trial (see the module doc).

    ``cap``: the largest chunk; ``floor``: the smallest (one trial per thread).
    :meth:`size` gives the next chunk for ``remaining`` trials; :meth:`record`
    tells how long a chunk of ``count`` trials took.
    """

    def __init__(self, cap: int, floor: int = 1, target_s: float = TARGET_S):
        self.cap = max(1, int(cap))
        self.floor = max(1, min(int(floor), self.cap))
        self.target_s = float(target_s)
        self._next = self.floor
        self._cost: float | None = None  # seconds a trial, once measured

    def size(self, remaining: int) -> int:
        return max(1, min(self._next, int(remaining)))

    def grace(self, count: int) -> float:
        """Seconds a stop waits for a chunk of ``count`` trials to end whole: three times
        its expected time, at least :data:`GRACE_S`. Before a trial is measured (the first
        chunk, which may be compiling the kernels) :data:`GRACE_S`: a stop then leaves the
        chunk to end in the background and drops it."""
        if self._cost is None:
            return GRACE_S
        return max(GRACE_S, 3.0 * count * self._cost)

    def record(self, count: int, seconds: float) -> None:
        if count <= 0:
            return
        self._cost = seconds / count
        if seconds <= 0:
            want = count * GROWTH
        else:
            want = int(count * self.target_s / seconds)
        self._next = max(self.floor, min(self.cap, count * GROWTH, want))


# ---------------------------------------------------------------- stop cells

_cells: list[tuple[object, object]] = []
_cells_lock = threading.Lock()
_trips = 0


@contextlib.contextmanager
def stop_cell(array, index):
    """Register ``array[index]`` (int64, 0) as a stop cell while the block runs:
    :func:`trip` sets it to 1, and a kernel that reads it between units of work
    stops early (its results then incomplete: the caller drops them)."""
    item = (array, index)
    with _cells_lock:
        _cells.append(item)
    try:
        yield
    finally:
        with _cells_lock:
            _cells.remove(item)


def trip() -> int:
    """Set every registered stop cell; returns how many were set."""
    global _trips
    with _cells_lock:
        for array, index in _cells:
            array[index] = 1
        _trips += len(_cells)
        return len(_cells)


def trips() -> int:
    """Stop cells set so far (a chunk that saw this grow was cut short)."""
    return _trips


# ---------------------------------------------------------------- the worker thread

class _Worker:
    """One long-lived daemon thread that runs chunks (the OpenMP pool of the
    kernels stays bound to one thread)."""

    def __init__(self):
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._loop, name="mgsim-chunks", daemon=True)
        self.thread.start()

    def _loop(self):
        while True:
            fn, args, threads, box, done = self.jobs.get()
            try:
                if threads is not None:
                    import numba

                    numba.set_num_threads(threads)
                box["value"] = fn(*args)
            except BaseException as e:  # handed to the caller
                box["error"] = e
            finally:
                done.set()


_worker: _Worker | None = None
_worker_lock = threading.Lock()


def _get_worker() -> _Worker:
    global _worker
    with _worker_lock:
        if _worker is None or not _worker.thread.is_alive():
            _worker = _Worker()
        return _worker


def _threads():
    import sys

    if "numba" not in sys.modules:
        return None
    import numba

    return int(numba.get_num_threads())


def call(fn, *args, cancel=None, heartbeat=None, grace: float = GRACE_S):
    """``fn(*args)`` run in the worker thread, the caller waiting (see the module doc).

    Returns its value or raises its exception. On Ctrl-C or once ``cancel``
    is set: trips the stop cells, waits for ``fn`` (at most ``grace``
    seconds: else it ends in the background, dropped) and raises
    :class:`Stopped` (with ``result`` when ``fn`` ended whole). ``heartbeat(seconds)`` is called every :data:`HEARTBEAT_S`
    seconds while ``fn`` runs. Called from the worker thread itself (nested),
    ``fn`` simply runs.
    """
    if threading.current_thread().name == "mgsim-chunks":
        return fn(*args)
    if requested(cancel):
        raise Stopped()
    box: dict = {}
    done = threading.Event()
    before = _trips
    _get_worker().jobs.put((fn, args, _threads(), box, done))
    t0 = last = time.monotonic()
    try:
        while not done.wait(POLL_S):
            if requested(cancel):
                raise Stopped()
            now = time.monotonic()
            if heartbeat is not None and now - last >= HEARTBEAT_S:
                last = now
                heartbeat(now - t0)
    except KeyboardInterrupt as e:
        by_signal = not isinstance(e, Stopped)
        trip()
        done.wait(grace)
        whole = done.is_set() and "error" not in box and _trips == before
        raise Stopped(box["value"], by_signal) if whole else Stopped(by_signal=by_signal) from None
    if "error" in box:
        raise box["error"]
    return box["value"]
