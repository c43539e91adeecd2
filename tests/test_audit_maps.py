"""Issue 36 follow-up, ``sim audit``: talents valued where they can act. The movement,
terrain and forced-move talents (``sim.study.entries.MAP_MECHANICS`` / ``HEX_MECHANICS``)
act only on a map, so the gridless reference encounters skip them and the hex (mb41)
and positions (mb-draft) encounters value them; a talent that needs its holder's policy
(Battle Sorcery, Defensive Switch) is played under that policy against a base of its own.
Small trial counts; the full audits' figures are in docs/audit.md."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
GRIDLESS = ROOT / "scenarios" / "audit" / "mb41" / "duo-vs-brute.yaml"


@pytest.fixture(scope="module")
def gridless_ctx():
    from sim.study.arms import StudyContext
    from sim.study.load import load_study

    ls = load_study(GRIDLESS)
    return StudyContext(ls.loaded, ls.doc, seed=7, trials=300, max_trials=300)


def _map_rows():
    from sim.study.entries import HEX_MECHANICS, MAP_MECHANICS, talent_entries
    from sim.systems.mb41 import catalog

    return [e for e in talent_entries(catalog) if e.mechanic in MAP_MECHANICS | HEX_MECHANICS]


def test_map_talents_change_no_gridless_trial_but_by_what_they_cost(gridless_ctx):
    """The sets hold to the engine: gridless, each map talent (its cost edited to 0 so that
    paying changes nothing) leaves every trial's outcome and length as they were; and the
    sets name every catalog talent that does so among the movement mechanics."""
    ctx = gridless_ctx
    base = ctx.metrics(ctx.arm("base", []), 300)
    rows = _map_rows()
    assert {"Sprint", "Teleport", "Mines", "Create Barrier", "Get Over Here", "Repel"} <= {e.name for e in rows}
    for e in rows:
        who = "Brute" if e.holder == "monster" else "Akari"
        arm = ctx.arm(f"with {e.name}", [(f"{who}.talents", [e.name]), (f"talents.{e.name}.cost", 0)])
        got = ctx.metrics(arm, 300)
        assert np.array_equal(got["win"], base["win"]) and np.array_equal(got["rounds"], base["rounds"]), e.name


def test_gridless_encounters_skip_map_talents_and_the_reading_names_what_no_cell_valued():
    from sim import api

    res = api.audit("mb41", encounters=[GRIDLESS], only=["Sprint", "Inflict"], trials=100, write=False)
    over = res.sections[0]
    assert list(over.tables["audit"]["name"]) == ["Inflict"]
    skipped = over.tables["cells"].dropna(subset=["skipped"])
    assert set(skipped["name"]) == {"Sprint"} and skipped["skipped"].str.startswith("acts only on a map").all()
    assert "Not valued (1; no reference cell could play them): Sprint (acts only on a map" in over.reading
    assert set(over.tables["encounters"]["map"]) == {"none"}


def test_a_talent_that_needs_its_policy_is_played_under_it_against_its_own_base():
    """Battle Sorcery (+3 to sorcery, seed 000 L1577) under girls who never cast sorcery: the
    holder casts as a Minor action in both its arm and its own base, so it is used and its
    value is the +3 alone (before: never used, 0 by construction)."""
    from sim import api

    res = api.audit("mb41", encounters=[GRIDLESS], only=["Battle Sorcery"], trials=400, write=False)
    cells = res.sections[0].tables["cells"]
    assert (cells["context"] == "Akari.policy.sorcery: minor").all()
    assert (cells["uses_per_fight"] > 1).all()
    row = res.sections[0].tables["audit"].set_index("name").loc["Battle Sorcery"]
    assert not row["never_used"] and row["lo"] > 0


@pytest.mark.parametrize("system", ["mb41", "mb-draft"])
def test_every_talent_can_act_in_three_bundled_encounters_under_two_policies(system):
    """Without playing: each entry's map (``acts_in``) in every bundled cell. mb41 values every
    simulated talent in at least three encounters and two policies; the draft every one but
    the four that act only on 4.1's hex grid (its positions do not play them)."""
    from sim.audit import load_encounters, reference_files
    from sim.study.arms import StudyContext
    from sim.study.audit import map_kind, selected

    where: dict[str, set] = {}
    entries = {}
    for ls in load_encounters(system, reference_files(system), None):
        ctx = StudyContext(ls.loaded, ls.doc, seed=1, trials=10, max_trials=10)
        for i, pol in enumerate(ls.spec.policies):
            kind = map_kind(ctx.arm(f"{pol.name} | base", list(pol.changes.items())).model)
            for e in selected(ctx, ls.spec):
                entries[e.name] = e
                if e.acts_in(kind):
                    where.setdefault(e.name, set()).add((ls.loaded.name, pol.name))
    short = {n for n in entries if len({c[0] for c in where.get(n, ())}) < 3
             or len({c[1] for c in where.get(n, ())}) < 2}
    expected = set() if system == "mb41" else {"Lashing Ground", "Mines", "Scattering shot", "Slither Away"}
    assert short == expected
    assert {"hex" if system == "mb41" else "positions", "none"} <= {
        map_kind(load_encounters(system, [f], None)[0].loaded.base) for f in reference_files(system)}
