"""Arms of a study: variants of the base scenario, played trial by trial.

An arm is the base scenario with some ``set:`` changes, applied exactly as a
variant's (:mod:`sim.scenario.variants`: the same paths, the same errors with
line numbers and suggestions), then validated by the system's model and
compiled. :meth:`StudyContext.trials_of` plays trials ``0..n-1`` of an arm and
keeps them; asking for more trials later plays only the new ones (trial ``i``
is always the same fight, so ``n`` trials are a prefix of ``2n``).

Rows are kept compact: one array per column (:func:`sim.trials.columns_of`:
``outcome`` int8, ``rounds`` int32, the girls' counts int16: 11 bytes a trial
for a fight, 5 for a card game), grown by doubling. Trials are played in
chunks that follow the measured cost of a trial, through
:func:`sim.cancel.call`, so Ctrl-C or ``cancel`` stops within about a second
and keeps every whole chunk (:class:`sim.runner.RunCancelled`); after each
chunk the context calls its ``saver`` (the study's checkpoint,
:mod:`sim.study.checkpoint`) and its progress.

A *dry* context (:attr:`StudyContext.dry`) plays nothing: it builds and
checks every arm a study would play and records how many trials each would
need (:attr:`StudyContext.need`), with stand-in rows (at most
:data:`DRY_TRIALS`, random outcomes) so the kind's code runs to its end.
That is the study's preflight (:mod:`sim.study.preflight`).

Streams (the reproducibility rule): under common random numbers (``crn: true``,
the default) every arm uses ``stream_key(seed, 0)``, the key ``sim run`` gives
every variant, so trial ``i`` of arm A and of arm B face the same dice. With
``crn: false`` arm number ``k`` (in the order the study creates them) uses
``stream_key(seed, k + 1)``, as ``sim run`` does for variant ``k``. The
independent replay of an arm used to measure the variance reduction uses
``stream_key(seed, INDEPENDENT_BASE + k)``; other replays (:meth:`StudyContext.replay`)
the key their kind gives.
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim import rng
from sim.scenario.errors import validate_model
from sim.scenario.variants import _apply, _Targets

#: most trials in one chunk of an arm (chunks start smaller, see :mod:`sim.cancel`)
CHUNK = 1 << 17
#: variant keys of independent replays start here (far from the ``k + 1`` of ``crn: false``)
INDEPENDENT_BASE = 1 << 20
#: per-trial columns of the fight systems, as study metrics
METRICS = ("win", "rounds", "girls_out", "girls_dead")
#: most stand-in rows a dry context gives an arm
DRY_TRIALS = 48
#: what a stream of rows is: an arm's own trials, or a replay on other streams
PURPOSES = ("arm", "independent", "fresh", "pair")


def tier_name(label: tuple[str, str]) -> str:
    """A stream's name in :class:`sim.tiers.Plan` and in ``provenance.tiers``: the arm's name, a
    replay's ``purpose:name``."""
    purpose, name = label
    return name if purpose == "arm" else f"{purpose}:{name}"


@dataclass
class Arm:
    """One arm: its name, its changes ``[(path, value)]``, compiled inputs and key.

    ``cols``: the per-trial columns played so far (arrays of at least ``done``
    rows); ``purpose``: :data:`PURPOSES` (``arm``, or a replay of the arm).
    """

    name: str
    changes: list
    model: Any
    inputs: Any
    key: np.uint64
    cols: dict = field(default_factory=dict)
    done: int = 0
    purpose: str = "arm"

    @property
    def label(self) -> tuple[str, str]:
        return (self.purpose, self.name)

    def append(self, rows: dict) -> None:
        """Add the next rows (arrays of one length), growing the columns by doubling."""
        n = len(next(iter(rows.values()))) if rows else 0
        for k, a in rows.items():
            col = self.cols.get(k)
            if col is None or len(col) < self.done + n:
                grown = np.empty(max(self.done + n, 2 * (0 if col is None else len(col)), 16), dtype=a.dtype)
                if col is not None:
                    grown[:self.done] = col[:self.done]
                self.cols[k] = col = grown
            col[self.done:self.done + n] = a
        self.done += n

    def rows(self, n: int) -> dict:
        """Views of the first ``n`` rows of every column."""
        return {k: v[:n] for k, v in self.cols.items()}

    def nbytes(self) -> int:
        return sum(v.nbytes for v in self.cols.values())


def _key(seed: int, variant_key: int) -> np.uint64:
    """:func:`sim.rng.stream_key` (the streams of ``sim run``'s variant ``variant_key``)."""
    return rng.stream_key(seed, variant_key)


def metric_columns(df) -> dict[str, np.ndarray]:
    """Per-trial metrics from per-trial rows (a ``per_trial`` frame or a mapping of
    column arrays): ``win`` (1 if the first side won, else 0), ``rounds``, and
    ``girls_out``/``girls_dead`` when the system gives them (first-side girls
    taken out at least once / dead at the end)."""
    out = {"win": (np.asarray(df["outcome"]) == 0).astype(np.float64),
           "rounds": np.asarray(df["rounds"]).astype(np.float64)}
    for c in ("girls_out", "girls_dead"):
        if c in df:
            out[c] = np.asarray(df[c]).astype(np.float64)
    return out


class StudyContext:
    """Everything a study kind needs: arms, their trials, the seed and trial counts.

    ``loaded`` is the base :class:`~sim.scenario.LoadedScenario`, ``doc`` the
    study file's document (for error lines), ``trials`` the starting number of
    trials per arm, ``max_trials`` the cap for precision stopping. ``dry``: a
    preflight context (module doc). The runner sets :attr:`progress` (a
    :mod:`sim.progress` object), :attr:`cancel`, :attr:`saver` (called with
    the context after every chunk; ``force=True`` at a stop) and
    :attr:`restored` (rows of a checkpoint, by stream label).
    """

    def __init__(self, loaded, doc, *, seed: int, trials: int, max_trials: int, dry: bool = False):
        self.loaded = loaded
        self.doc = doc
        self.system = loaded.system
        self.seed = int(seed)
        self.crn = bool(getattr(loaded.base, "crn", True))
        self.trials = int(trials)
        self.max_trials = int(max(max_trials, trials))
        self.arms: dict[str, Arm] = {}
        self._data = {k: v for k, v in loaded.raw.items() if k not in ("study", "variants", "sweep")}
        # paths may start with the system's top-level data blocks too (talents.Curse.cost, cards.X.atk)
        self._targets = _Targets(self._data, tuple(getattr(loaded.module, "VARIANT_FIELDS", ())))
        self._replays: dict[tuple, Arm] = {}
        #: a dask cluster (:class:`sim.distributed.Cluster`) that plays the trials, or None
        self.backend = None
        self.dry = bool(dry)
        #: stream label -> most trials asked of it (a dry context's count of the work)
        self.need: dict[tuple, int] = {}
        self.progress = None
        self.cancel = None
        self.saver = None
        self.restored: dict[tuple, tuple] = {}
        #: arms built by an earlier (dry) context: name -> (changes, model, inputs)
        self.prebuilt: dict[str, tuple] = {}
        #: True when every row must come from :attr:`restored` (``sim report``)
        self.frozen = False
        self._chunker = None
        #: the engine tiers of the study's streams (:class:`sim.tiers.Plan`, set by the run; ``None``:
        #: the general engine plays every row)
        self.tiers = None
        self._tier = 1  # the tier of the last chunk

    # ------------------------------------------------------------ building arms

    def value_at(self, path: str, loc: tuple = ("study",)):
        """The base scenario's value at a ``set:`` path (None if unset)."""
        from sim.scenario.variants import _resolve

        data = copy.deepcopy(self._data)
        prefix, rest = _resolve(data, self._targets, path, self.doc, loc, "study")
        cur = data
        for seg in (*prefix, *rest):
            if isinstance(cur, dict):
                cur = cur.get(seg)
            elif isinstance(cur, list) and isinstance(seg, int) and -len(cur) <= seg < len(cur):
                cur = cur[seg]
            else:
                return None
            if cur is None:
                return None
        return cur

    def arm(self, name: str, changes: list, loc: tuple = ("study",), set_key: bool = True) -> Arm:
        """Build (or return the already built) arm ``name``.

        ``changes``: ``[(path, value)]`` applied in order to the base scenario;
        ``loc``: where in the study file they were written (error lines); with
        ``set_key`` the changes are the ``set:`` mapping under ``loc``.
        """
        if name in self.arms:
            return self.arms[name]
        pre = self.prebuilt.get(name)
        if pre is not None and pre[0] == list(changes):
            model, inputs = pre[1], pre[2]
        else:
            data = copy.deepcopy(self._data)
            origins: dict = {}
            where = f"study arm {name!r}"
            for path, value in changes:
                at = loc + ("set", path) if set_key else loc
                origins[_apply(data, self._targets, path, value, self.doc, at, where)] = at
            model = validate_model(self.loaded.module.SCENARIO_MODEL, data, self.doc, where=where,
                                   origins=origins)
            inputs = self.loaded.module.compile(model)
        k = len(self.arms)
        key = _key(self.seed, 0 if self.crn else k + 1)
        arm = self._restore(Arm(name, list(changes), model, inputs, key))
        self.arms[name] = arm
        return arm

    def _restore(self, arm: Arm) -> Arm:
        """``arm`` with the rows a checkpoint kept for it (refused if keyed otherwise)."""
        got = self.restored.get(arm.label)
        if got is not None:
            key, cols, done = got
            if np.uint64(key) != np.uint64(arm.key):
                from sim.runner import RunError

                raise RunError(f"the checkpoint's rows of {arm.purpose} {arm.name!r} were played on other "
                               "streams than this study gives it; remove the checkpoint and run without --resume")
            arm.cols, arm.done = dict(cols), int(done)
        return arm

    def streams(self) -> list[Arm]:
        """Every stream of rows: the arms, then the replays (the checkpoint's content)."""
        return [*self.arms.values(), *self._replays.values()]

    # ------------------------------------------------------------ playing trials

    def _play(self, arm: Arm, n: int) -> dict:
        """The first ``n`` rows of ``arm`` (played as needed), as column arrays."""
        n = int(n)
        self.need[arm.label] = max(self.need.get(arm.label, 0), n)
        if self.dry:
            return _stand_in(self.system, min(n, DRY_TRIALS), len(self.need))
        while arm.done < n:
            if self.frozen:
                from sim.runner import RunError

                raise RunError(f"the checkpoint holds {arm.done:,} trials of {arm.purpose} {arm.name!r}, "
                               f"but the study needs {n:,}: it is not a finished study's checkpoint")
            self._chunk(arm, n)
        return arm.rows(n)

    def _chunk(self, arm: Arm, n: int) -> None:
        """One chunk of ``arm``'s trials toward ``n`` (see the module doc)."""
        from sim import cancel as stop
        from sim.runner import chunker

        if self._chunker is None:
            self._chunker = chunker(CHUNK, 1 if self.backend is not None else None)
        count = self._chunker.size(n - arm.done)
        t0 = time.monotonic()
        try:
            rows = stop.call(self._rows_of, arm, arm.done, count, cancel=self.cancel,
                             heartbeat=getattr(self.progress, "working", None),
                             grace=self._chunker.grace(count))
        except stop.Stopped as e:
            if e.has_result:
                self._took(arm, count, e.result)
            self._stopped()
        if self._tier == 1:  # chunk sizes follow the general engine's pace (tier 2's are shorter)
            self._chunker.record(count, time.monotonic() - t0)
        self._took(arm, count, rows)
        if self.saver is not None:
            self.saver(self)

    def _stopped(self):
        """Save the rows kept (the saver, forced) and raise :class:`sim.runner.RunCancelled`."""
        from sim.runner import RunCancelled

        if self.saver is not None:
            self.saver(self, force=True)
        raise RunCancelled({a.name: a.done for a in self.streams()}) from None

    def guarded(self, fn, *args):
        """``fn(*args)`` (work besides the rows, such as the audit's count of uses), stopped
        like a chunk (:func:`sim.cancel.call`): Ctrl-C or :attr:`cancel` saves the rows and
        raises :class:`sim.runner.RunCancelled`; nothing of ``fn`` is kept."""
        from sim import cancel as stop

        try:
            return stop.call(fn, *args, cancel=self.cancel, heartbeat=getattr(self.progress, "working", None))
        except stop.Stopped:
            self._stopped()

    def _took(self, arm: Arm, count: int, rows: dict) -> None:
        arm.append(rows)
        if self.progress is not None:
            self.progress.update(count)

    def _rows_of(self, arm: Arm, start: int, count: int) -> dict:
        from sim.trials import trial_columns

        if self.backend is not None:  # the same rows, played on the cluster's workers
            tier, played = 1, {}
            if self.tiers is not None:  # tier 2 where this machine and the worker hold the build
                tier = self.tiers.pooled_tier(tier_name(arm.label), arm.inputs, count)
            df = self.backend.per_trial(self.system, arm.inputs, start, count, arm.key, tier, played)
            if self.tiers is not None:
                for t, n in played.items():
                    self.tiers.record(tier_name(arm.label), t, n)
            return {k: df[k].to_numpy() for k in df.columns if k != "trial"}
        self._tier = 1
        if self.tiers is None:
            return trial_columns(self.system, arm.inputs, start, count, arm.key)
        name = tier_name(arm.label)
        if name not in self.tiers.keys:  # a stream the preflight did not foresee (a calibration's
            # refinement): it joins a build of its structure the study plays already
            self.tiers.plan(name, arm.inputs, count)
        self._tier = self.tiers.tier(name, arm.inputs)
        rows = trial_columns(self.system, arm.inputs, start, count, arm.key, tier=self._tier)
        self.tiers.record(name, self._tier, count)
        return rows

    def trials_of(self, arm: Arm | str, n: int | None = None) -> pd.DataFrame:
        """Trials ``0..n-1`` of ``arm`` (default ``n``: :attr:`trials`), one row each."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        rows = self._play(arm, self.trials if n is None else n)
        m = len(next(iter(rows.values())))
        return pd.DataFrame({"trial": np.arange(m, dtype=np.int64), **rows})

    def metrics(self, arm: Arm | str, n: int | None = None) -> dict[str, np.ndarray]:
        """:func:`metric_columns` of trials ``0..n-1`` of ``arm``."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        return metric_columns(self._play(arm, self.trials if n is None else n))

    def draws(self, arm: Arm | str, n: int | None = None) -> np.ndarray:
        """1.0 where trial ``t`` of ``arm`` (``0..n-1``) was a draw (outcome 2: the round or turn
        cap, or both sides out at once), else 0.0; the rows :meth:`metrics` reads (no new play)."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        rows = self._play(arm, self.trials if n is None else n)
        return (np.asarray(rows["outcome"]) == 2).astype(np.float64)

    def replay(self, arm: Arm | str, purpose: str, variant_key: int, n: int | None = None) -> dict:
        """The rows of ``arm`` replayed on the streams ``stream_key(seed, variant_key)``
        (``purpose``: :data:`PURPOSES`, names the replay in the checkpoint)."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        return self.rows_of(purpose, arm.name, arm.inputs, variant_key, n, arm.changes, arm.model)

    def rows_of(self, purpose: str, name: str, inputs, variant_key: int, n: int | None = None,
                changes=(), model=None) -> dict:
        """The first ``n`` rows of the stream ``(purpose, name)``: ``inputs`` played on
        ``stream_key(seed, variant_key)`` (a replay, or a game a kind builds itself, such
        as a round robin's pairing), kept and checkpointed like an arm's."""
        label = (purpose, name)
        if label not in self._replays:
            self._replays[label] = self._restore(Arm(name, list(changes), model, inputs,
                                                     _key(self.seed, variant_key), purpose=purpose))
        return self._play(self._replays[label], self.trials if n is None else n)

    def independent(self, arm: Arm | str, n: int | None = None) -> dict[str, np.ndarray]:
        """The metrics of ``arm`` replayed on streams shared with no other arm."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        k = list(self.arms).index(arm.name)
        return metric_columns(self.replay(arm, "independent", INDEPENDENT_BASE + k, n))

    def until_precise(self, half_widths, precision: float | None) -> int:
        """Stop by precision: double the trials from :attr:`trials` until every value of
        ``half_widths(n)`` (a callable returning the primary intervals' half-widths
        at ``n`` trials) is at most ``precision``, or :attr:`max_trials`. Returns the
        trial count reached (and sets :attr:`trials` to it). A dry context assumes
        the worst: :attr:`max_trials`."""
        n = self.trials
        if precision is None:
            return n
        if self.dry:
            self.trials = self.max_trials
            return self.trials
        while True:
            widths = np.asarray(half_widths(n), dtype=float)
            if n >= self.max_trials or not widths.size or np.all(widths <= precision):
                break
            n = min(2 * n, self.max_trials)
        self.trials = n
        return n


def _stand_in(system: str, n: int, salt: int) -> dict:
    """Random rows of ``system``'s columns (a dry context's, never reported)."""
    from sim.trials import columns_of

    g = np.random.default_rng(salt)
    out = {}
    for k, dtype in columns_of(system).items():
        hi = 3 if k == "outcome" else (12 if k == "rounds" else 3)
        out[k] = g.integers(0 if k != "rounds" else 1, hi, n).astype(dtype)
    return out
