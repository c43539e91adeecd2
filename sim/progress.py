"""Progress of a run on stderr, with an end: a total, a percentage and an ETA.

Modes (``sim run --progress``):

* ``bar``: a tqdm bar with the total, percentage, rate and ETA (a terminal);
* ``plain``: one line at the second finished chunk (or a first that took
  :data:`PLAIN_EVERY_S` seconds), then at most every :data:`PLAIN_EVERY_S`
  seconds, a line every :data:`PLAIN_EVERY_S` seconds while a long chunk runs
  (:meth:`Progress.working`), and a last line at the end, e.g.
  ``progress: 524,288/1,048,576 trials (50.0%), 2.1M trials/s, elapsed 0:00:00, ETA 0:00:00``
  (a batch job's ``2>log``);
* ``auto``: ``bar`` when stderr is a terminal, else ``plain``;
* ``none``: nothing.

Fixed-trial runs know their total. ``--precision`` runs do not: their total
is an *estimate* (marked ``~``) that the runner revises after every doubling
round from the Wilson half-width: a rate ``p`` needs about
``1.96^2 p (1-p) / H^2`` trials for a half-width ``H`` (see
:func:`trials_for_precision`). Units: trials (summed over variants), seconds.
"""
from __future__ import annotations

import math
import sys
import time

MODES = ("auto", "bar", "plain", "none")
#: seconds between two plain progress lines
PLAIN_EVERY_S = 5.0


def trials_for_precision(rates, h: float) -> int:
    """Trials for a 95% half-width ``h`` on every rate in ``rates`` (fractions),
    by the normal approximation ``1.96^2 p (1-p) / h^2`` (at least 1)."""
    worst = max((p * (1 - p) for p in rates), default=0.25)
    return max(1, math.ceil(1.96 ** 2 * max(worst, 1e-6) / h ** 2))


def _hms(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _si(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.1f}{unit}"
    return f"{x:.0f}" if x >= 10 else f"{x:.2g}"


class Progress:
    """Counts trials done in this run against a total (``estimate`` when a guess)."""

    def __init__(self, mode: str, stream=None, clock=time.monotonic):
        self.mode = mode
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.start = clock()
        self.n = 0
        self.total = 0
        self.estimate = False
        self.basis = "the precision"
        self._last = None
        self._first = None  # (time, trials) at the first finished chunk: the rate excludes compiling
        self._bar = None
        if mode == "bar":
            from tqdm import tqdm

            self._bar = tqdm(total=None, unit="trial", unit_scale=True, file=self.stream, leave=False)

    def set_total(self, total: int, estimate: bool = False, basis: str = "the precision") -> None:
        """Total trials of this run (done here plus still to do); ``estimate``: a guess
        (``basis``: what it is estimated from, said in the plain line)."""
        self.total = max(int(total), self.n)
        self.estimate = estimate
        self.basis = basis
        if self._bar is not None:
            self._bar.total = self.total
            self._bar.set_description("~estimate" if estimate else None, refresh=False)
            self._bar.refresh()

    def update(self, n: int) -> None:
        """``n`` more trials are done. Plain lines: from the second finished chunk (the
        first sets the rate's start: it may include compiling) or once a chunk took
        :data:`PLAIN_EVERY_S`, then at most every :data:`PLAIN_EVERY_S` seconds."""
        now = self.clock()
        first = self._first is None
        if first:
            self._first = (now, int(n))
        self.n += int(n)
        if self._bar is not None:
            self._bar.update(n)
            return
        if self._last is None:
            if first and now - self.start < PLAIN_EVERY_S:
                return
        elif now - self._last < PLAIN_EVERY_S:
            return
        self._last = now
        self._line()

    def working(self, seconds: float) -> None:
        """A chunk has been running for ``seconds`` (slow trials): a plain line at most every
        :data:`PLAIN_EVERY_S` seconds saying so, so a long chunk is not silent."""
        if self._bar is not None:
            self._bar.refresh()
            return
        now = self.clock()
        if self._last is None or now - self._last >= PLAIN_EVERY_S:
            self._last = now
            print(self.line() + f"; trials in progress for {_hms(seconds)}", file=self.stream, flush=True)

    def note(self, text: str) -> None:
        """A line of news (``sim audit``'s encounter started) above the bar, or among the lines."""
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def line(self, final: bool = False) -> str:
        """The plain progress line (``final``: the closing line)."""
        now = self.clock()
        elapsed = max(now - self.start, 1e-9)
        rate = self.n / elapsed
        if self._first is not None and self.n > self._first[1] and now > self._first[0]:
            rate = (self.n - self._first[1]) / (now - self._first[0])  # after the first chunk (compiling)
        if final:
            return f"progress: done, {self.n:,} trials in {_hms(elapsed)} ({_si(rate)} trials/s)"
        tilde = "~" if self.estimate else ""
        total = max(self.total, self.n)
        pct = 100.0 * self.n / total if total else 0.0
        eta = (total - self.n) / rate if rate > 0 else math.inf
        note = f", total estimated from {self.basis}" if self.estimate else ""
        return (f"progress: {self.n:,}/{tilde}{total:,} trials ({tilde}{pct:.1f}%{note}), "
                f"{_si(rate)} trials/s, elapsed {_hms(elapsed)}, ETA {tilde}{_hms(eta)}")

    def _line(self, final: bool = False) -> None:
        print(self.line(final), file=self.stream, flush=True)

    def close(self, final: bool = True) -> None:
        """End the bar; in plain mode write the closing line when the run ``final``-ly finished."""
        if self._bar is not None:
            self._bar.close()
        elif final and self.n:
            self._line(final=True)


class CallbackProgress:
    """Progress reported to a function instead of stderr (``api.run(progress=f)``).

    ``f(done, total, estimate)`` is called once the total is known and after
    every finished chunk, in the thread that runs the simulation: ``done`` and
    ``total`` are trials summed over variants in this run (``total`` includes
    trials a resumed checkpoint had already done), ``estimate`` is true while
    the total is a guess (``--precision`` runs). It should return quickly.
    """

    def __init__(self, fn):
        self.fn = fn
        self.n = 0
        self.total = 0
        self.estimate = False

    def set_total(self, total: int, estimate: bool = False, basis: str = "the precision") -> None:
        self.total = max(int(total), self.n)
        self.estimate = bool(estimate)
        self.fn(self.n, self.total, self.estimate)

    def update(self, n: int) -> None:
        self.n += int(n)
        self.fn(self.n, max(self.total, self.n), self.estimate)

    def working(self, seconds: float) -> None:
        """A long chunk is still running: ``f`` is called again with the same counts."""
        self.fn(self.n, max(self.total, self.n), self.estimate)

    def note(self, text: str) -> None:
        """News lines are not counts: the function is not called."""

    def close(self, final: bool = True) -> None:
        pass


def make_progress(mode) -> Progress | CallbackProgress | None:
    """A :class:`Progress` for ``mode`` (one of :data:`MODES`; ``True`` means
    ``auto``, ``False``/``None`` ``none``), a :class:`CallbackProgress` when
    ``mode`` is a function, or ``None`` for no progress."""
    if callable(mode):
        return CallbackProgress(mode)
    if mode is True:
        mode = "auto"
    if not mode or mode == "none":
        return None
    if mode not in MODES:
        raise ValueError(f"progress mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode == "auto":
        mode = "bar" if sys.stderr.isatty() else "plain"
    return Progress(mode)
