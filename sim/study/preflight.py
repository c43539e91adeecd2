"""A study's preflight: every arm built and checked, the work counted and the
memory bounded, before a trial is played.

:func:`dry_run` runs the study's kind on a *dry* context
(:class:`sim.study.arms.StudyContext` with ``dry=True``): the kind's own code
builds every arm it would play (every candidate, every stat change, every
policy of a policy-robustness study with every arm of its nested study, every
pairing of a round robin) and so reports every error a real run would reach
late (a misspelt path in a fifth policy, a self-pair) with its file and line,
while no trial is played (stand-in rows, at most
:data:`sim.study.arms.DRY_TRIALS` per arm). It also records how many trials
each stream would need: with ``precision`` the worst case, ``max_trials``.
``sim validate`` runs it too.

Memory: a stream keeps its rows (11 bytes a trial for a fight, 5 for a card
game, :func:`sim.trials.columns_of`) and a kind computes its tables from
float64 copies of up to four metrics (32 bytes a trial; 16 for a card game),
so :func:`check_memory` counts :func:`bytes_per_trial` per trial of every
stream and refuses a study above the limit (``--max-memory``, default
:data:`DEFAULT_MAX_MEMORY_GB` GB) with the figure and the flag.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

#: the default memory limit of a study (GB, 10^9 bytes); ``sim study --max-memory`` raises it
DEFAULT_MAX_MEMORY_GB = 4.0


@dataclass
class Plan:
    """What a study will play: trials needed per stream, their memory, the arms built."""

    need: dict
    bytes: int
    bytes_per_trial: int
    prebuilt: dict
    estimate: bool
    #: every stream's compiled inputs, by label (what :mod:`sim.tiers` plans the engines from)
    inputs: dict = field(default_factory=dict)

    @property
    def total(self) -> int:
        return int(sum(self.need.values()))

    @property
    def streams(self) -> int:
        return len(self.need)


def bytes_per_trial(system: str) -> int:
    """Bytes a trial of one stream costs: its row plus the kind's float64 metrics."""
    from sim.trials import columns_of

    cols = columns_of(system)
    kept = sum(np.dtype(d).itemsize for d in cols.values())
    metrics = 8 * (4 if len(cols) > 2 else 2)
    return int(kept + metrics)


def dry_run(ls, seed: int, trials: int, max_trials: int) -> Plan:
    """Run ``ls``'s kind on a dry context (module doc); errors are the real run's."""
    from . import registry
    from .arms import StudyContext

    ctx = StudyContext(ls.loaded, ls.doc, seed=seed, trials=trials, max_trials=max_trials, dry=True)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        registry.get_kind(ls.spec.kind).run(ctx, ls.spec)
    per = bytes_per_trial(ls.loaded.system)
    prebuilt = {name: (arm.changes, arm.model, arm.inputs) for name, arm in ctx.arms.items()}
    need = {label: int(n) for label, n in ctx.need.items()}
    return Plan(need=need, bytes=per * sum(need.values()), bytes_per_trial=per, prebuilt=prebuilt,
                estimate=ls.spec.precision is not None,
                inputs={a.label: a.inputs for a in ctx.streams()})


def check_memory(plan: Plan, max_memory_gb: float | None, flag: str = "--max-memory") -> None:
    """Refuse a plan whose rows need more than ``max_memory_gb`` GB (:class:`StudyError`)."""
    from .errors import StudyError

    limit = DEFAULT_MAX_MEMORY_GB if max_memory_gb is None else float(max_memory_gb)
    if plan.bytes > limit * 1e9:
        worst = " at most (the precision's max_trials)" if plan.estimate else ""
        raise StudyError(
            f"this study would keep {plan.total:,} trials{worst} over {plan.streams} arms and replays, about "
            f"{plan.bytes / 1e9:.1f} GB ({plan.bytes_per_trial} bytes a trial: the row and the float64 metrics "
            f"its tables are computed from), more than the limit of {limit:g} GB. Ask for fewer trials "
            f"(--trials, max_trials) or fewer arms, or raise the limit with {flag} GB if the machine has "
            "the memory.")
