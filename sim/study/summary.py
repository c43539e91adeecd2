"""``sim validate`` of a study file: check the arms it would build and say what it would run.

:func:`summarise` builds (validates and compiles, without playing a trial) the
arms of the kinds whose arms are known before playing: ``compare``,
``talent-value``, ``exchange-rate``, ``calibrate`` (its grid before
refinement), ``policy-robustness`` (each policy's own arm, the nested
study's arms under the first) and ``policy-tuning`` (the candidates). So a
misspelt path, a talent that does not exist or a value out of bounds is found
by ``sim validate``, with its line, as ``sim study`` would find it. The
summary says the kind, the arms, the trials per arm and the total trials.
"""
from __future__ import annotations

from .arms import StudyContext


def _build(ctx, spec) -> list[str]:
    """Build the arms of ``spec``'s kind (no trial played); returns their names."""
    kind = spec.kind
    if kind == "compare":
        from .compare import _pairs

        _pairs(ctx, spec)
        for i, arm in enumerate(spec.arms):
            ctx.arm(arm.name, list(arm.changes.items()), ("study", "arms", i))
    elif kind == "talent-value":
        from .talents import _arms

        _arms(ctx, spec)
    elif kind == "exchange-rate":
        from .exchange import _stat_arms

        ctx.arm(spec.talent.name, list(spec.talent.changes.items()), ("study", "talent"))
        for path in spec.stats:
            _stat_arms(ctx, spec, path)
    elif kind == "calibrate":
        from .calibrate import _grid

        for v in _grid(spec)[0]:
            ctx.arm(f"{spec.parameter}={v}", [(spec.parameter, v)], ("study", "parameter"), set_key=False)
    elif kind == "policy-robustness":
        for i, pol in enumerate(spec.policies):
            ctx.arm(pol.name, list(pol.changes.items()), ("study", "policies", i))
    elif kind == "audit":
        from .audit import _changes, check_holders, selected

        check_holders(ctx, spec)
        for i, pol in enumerate(spec.policies):
            ctx.arm(pol.name, list(pol.changes.items()), ("study", "policies", i))
        for e in selected(ctx, spec):  # the first policy's entry arms: a refused entry is skipped, not an error
            got = _changes(ctx, spec, e)
            if got is not None:
                try:
                    ctx.arm(e.name, list(spec.policies[0].changes.items()) + got[0], ("study", "tester"), False)
                except Exception:  # noqa: BLE001 - sim audit skips it with its reason
                    pass
    elif kind == "policy-tuning":
        from .tuning import _candidates, _domain, _name, _side

        _side(ctx, spec)
        domains = {p: _domain(ctx, p, raw) for p, raw in spec.parameters.items()}
        for i, c in enumerate(_candidates(domains, spec.candidates, ctx.seed)):
            ctx.arm(_name(i), list(c.items()), ("study", "parameters"), set_key=False)
    return list(ctx.arms)


def summarise(ls) -> dict:
    """``{kind, arms, arm_names, trials_per_arm, total_trials, precision, sentence}`` of a
    loaded study (:class:`sim.study.load.LoadedStudy`); raises ``ScenarioError`` for an
    arm that ``sim study`` would refuse."""
    base = ls.loaded.base
    spec = ls.spec
    ctx = StudyContext(ls.loaded, ls.doc, seed=base.seed, trials=base.trials,
                       max_trials=spec.max_trials or base.max_trials)
    names = _build(ctx, spec)
    if spec.kind == "matchups":  # entries, not arms: every ordered pair plays both seatings
        entries = list(spec.entries or spec.decks or [])
        k = len(entries)
        games = k * (k - 1) * base.trials if k else 0
        return {"kind": spec.kind, "arms": k, "arm_names": entries, "trials_per_arm": base.trials,
                "total_trials": games, "precision": spec.precision,
                "sentence": (f"matchups study: {k} entries ({', '.join(entries)}), {k * (k - 1) // 2} pairs x 2 "
                             f"seatings x {base.trials:,} games" if k else
                             "matchups study of the scenario's decks")}
    n = len(names)
    extra = {"calibrate": " (before the refinement round)",
             "policy-robustness": " (the policies' own arms; the nested study's arms are made under each)"}
    stop = (f", doubling until every primary half-width is at most {spec.precision:g} (at most "
            f"{ctx.max_trials:,} per arm)" if spec.precision is not None else "")
    sentence = (f"{spec.kind} study: {n} arm{'s' if n != 1 else ''}{extra.get(spec.kind, '')}"
                + (f" ({', '.join(names[:8])}{', ...' if n > 8 else ''})" if n else "")
                + f", {base.trials:,} trials per arm{stop}; every arm's changes are valid")
    return {"kind": spec.kind, "arms": n, "arm_names": names, "trials_per_arm": base.trials,
            "total_trials": n * base.trials, "precision": spec.precision, "sentence": sentence}
