"""Arms of a study: variants of the base scenario, played trial by trial.

An arm is the base scenario with some ``set:`` changes, applied exactly as a
variant's (:mod:`sim.scenario.variants`: the same paths, the same errors with
line numbers and suggestions), then validated by the system's model and
compiled. :meth:`StudyContext.trials` plays trials ``0..n-1`` of an arm through
:func:`sim.trials.per_trial` and keeps them; asking for more trials later plays
only the new ones (trial ``i`` is always the same fight, so ``n`` trials are a
prefix of ``2n``).

Streams (the reproducibility rule): under common random numbers (``crn: true``,
the default) every arm uses ``stream_key(seed, 0)``, the key ``sim run`` gives
every variant, so trial ``i`` of arm A and of arm B face the same dice. With
``crn: false`` arm number ``k`` (in the order the study creates them) uses
``stream_key(seed, k + 1)``, as ``sim run`` does for variant ``k``. The
independent replay of an arm used to measure the variance reduction uses
``stream_key(seed, INDEPENDENT_BASE + k)``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim import rng
from sim.scenario.errors import validate_model
from sim.scenario.variants import _apply, _Targets

#: trials per call of ``per_trial``
CHUNK = 1 << 17
#: variant keys of independent replays start here (far from the ``k + 1`` of ``crn: false``)
INDEPENDENT_BASE = 1 << 20
#: per-trial columns of the fight systems, as study metrics
METRICS = ("win", "rounds", "girls_out", "girls_dead")


@dataclass
class Arm:
    """One arm: its name, its changes ``[(path, value)]``, compiled inputs and key."""

    name: str
    changes: list
    model: Any
    inputs: Any
    key: np.uint64
    frames: list = field(default_factory=list)
    done: int = 0


def _key(seed: int, variant_key: int) -> np.uint64:
    """:func:`sim.rng.stream_key` (the streams of ``sim run``'s variant ``variant_key``)."""
    return rng.stream_key(seed, variant_key)


def metric_columns(df: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per-trial metrics from a ``per_trial`` frame: ``win`` (1 if the first side
    won, else 0), ``rounds``, and ``girls_out``/``girls_dead`` when the system
    gives them (first-side girls taken out at least once / dead at the end)."""
    out = {"win": (df["outcome"].to_numpy() == 0).astype(np.float64),
           "rounds": df["rounds"].to_numpy().astype(np.float64)}
    for c in ("girls_out", "girls_dead"):
        if c in df.columns:
            out[c] = df[c].to_numpy().astype(np.float64)
    return out


class StudyContext:
    """Everything a study kind needs: arms, their trials, the seed and trial counts.

    ``loaded`` is the base :class:`~sim.scenario.LoadedScenario`, ``doc`` the
    study file's document (for error lines), ``trials`` the starting number of
    trials per arm, ``max_trials`` the cap for precision stopping.
    """

    def __init__(self, loaded, doc, *, seed: int, trials: int, max_trials: int):
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
        self._independent: dict[str, Arm] = {}
        #: a dask cluster (:class:`sim.distributed.Cluster`) that plays the trials, or None
        self.backend = None

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
        data = copy.deepcopy(self._data)
        origins: dict = {}
        where = f"study arm {name!r}"
        for path, value in changes:
            at = loc + ("set", path) if set_key else loc
            origins[_apply(data, self._targets, path, value, self.doc, at, where)] = at
        model = validate_model(self.loaded.module.SCENARIO_MODEL, data, self.doc, where=where,
                               origins=origins)
        k = len(self.arms)
        key = _key(self.seed, 0 if self.crn else k + 1)
        arm = Arm(name, list(changes), model, self.loaded.module.compile(model), key)
        self.arms[name] = arm
        return arm

    # ------------------------------------------------------------ playing trials

    def _play(self, arm: Arm, n: int) -> pd.DataFrame:
        from sim.trials import per_trial

        while arm.done < n:
            count = min(CHUNK, n - arm.done)
            if self.backend is not None:  # the same rows, played on the cluster's workers
                arm.frames.append(self.backend.per_trial(self.system, arm.inputs, arm.done, count, arm.key))
            else:
                arm.frames.append(per_trial(self.system, arm.inputs, arm.done, count, arm.key))
            arm.done += count
        if len(arm.frames) > 1:
            arm.frames = [pd.concat(arm.frames, ignore_index=True)]
        return arm.frames[0].iloc[:n]

    def trials_of(self, arm: Arm | str, n: int | None = None) -> pd.DataFrame:
        """Trials ``0..n-1`` of ``arm`` (default ``n``: :attr:`trials`), one row each."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        return self._play(arm, self.trials if n is None else n)

    def metrics(self, arm: Arm | str, n: int | None = None) -> dict[str, np.ndarray]:
        """:func:`metric_columns` of trials ``0..n-1`` of ``arm``."""
        return metric_columns(self.trials_of(arm, n))

    def independent(self, arm: Arm | str, n: int | None = None) -> dict[str, np.ndarray]:
        """The metrics of ``arm`` replayed on streams shared with no other arm."""
        arm = self.arms[arm] if isinstance(arm, str) else arm
        if arm.name not in self._independent:
            k = list(self.arms).index(arm.name)
            self._independent[arm.name] = Arm(arm.name, arm.changes, arm.model, arm.inputs,
                                               _key(self.seed, INDEPENDENT_BASE + k))
        return metric_columns(self._play(self._independent[arm.name], self.trials if n is None else n))

    def until_precise(self, half_widths, precision: float | None) -> int:
        """Stop by precision: double the trials from :attr:`trials` until every value of
        ``half_widths(n)`` (a callable returning the primary intervals' half-widths
        at ``n`` trials) is at most ``precision``, or :attr:`max_trials`. Returns the
        trial count reached (and sets :attr:`trials` to it)."""
        n = self.trials
        if precision is None:
            return n
        while True:
            widths = np.asarray(half_widths(n), dtype=float)
            if n >= self.max_trials or not widths.size or np.all(widths <= precision):
                break
            n = min(2 * n, self.max_trials)
        self.trials = n
        return n
