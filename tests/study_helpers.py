"""Helpers for the study tests: a duel study as YAML text, loaded; the exact duel win rate."""
from __future__ import annotations

import copy

import yaml

from helpers import duel_data


def duel_study(study: dict, **changes) -> str:
    """YAML text of the foundation duel (Akari 4/4/3 vs Shade 3/3/3, Resolve 18) with ``study``."""
    d = duel_data(**changes)
    d["study"] = copy.deepcopy(study)
    return yaml.safe_dump(d, sort_keys=False)


def load(text: str):
    from sim.study.load import load_study_text

    return load_study_text(text, "<study>")


def context(ls, seed: int, trials: int):
    from sim.study.arms import StudyContext

    return StudyContext(ls.loaded, ls.doc, seed=seed, trials=trials, max_trials=trials)


def exact_win(akari: dict | None = None, shade: dict | None = None) -> float:
    """The exact DP's P(Akari wins) for the duel with these stat changes."""
    from sim.systems.mb41.exact_duel import Fighter, duel
    from sim.systems.mb41.rules import RULES

    r = RULES.resolve({"grid": "none", "revive": False, "initiative": "listed"})
    a = {"attack": 4, "defence": 4, "support": 3, "resolve": 18, **(akari or {})}
    b = {"attack": 3, "defence": 3, "support": 3, "resolve": 18, **(shade or {})}
    fa = Fighter(a["attack"], a["defence"], a["support"], a["resolve"], r["melee_bonus"])
    fb = Fighter(b["attack"], b["defence"], b["support"], b["resolve"], r["melee_bonus"])
    return float(duel(fa, fb, initiative="listed", round_cap=r["round_cap"], min_damage=r["min_damage"],
                      full_tie=r["full_tie"])[0])


def kept_study_checkpoint(folder, trials: int = 500):
    """The complete checkpoint a two-arm compare study keeps when its report cannot be
    written (the write made to fail with "No space left on device")."""
    import pytest

    from sim import api
    from sim.report.atomic import ReportWriteError
    from sim.study import run as study_run

    f = folder / "s.yaml"
    f.write_text(duel_study({"kind": "compare", "arms": [{"name": "base"}, {"name": "a5",
                                                                            "set": {"Akari.attack": 5}}]}))
    real = study_run.write_study
    study_run.write_study = lambda *a, **k: (_ for _ in ()).throw(OSError(28, "No space left on device"))
    try:
        with pytest.raises(ReportWriteError):
            api.study(f, trials=trials, out=folder / "out")
    finally:
        study_run.write_study = real
    return next(folder.glob(".out.study-checkpoint-*.npz"))
