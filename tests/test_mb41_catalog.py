"""The Magical Burst 4.1 catalog (sim/systems/mb41/catalog): every row of the rules audit's
section 2 table is a validated data row; only simulated rows are accepted by scenarios."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from sim.scenario import ScenarioError
from sim.systems.mb41 import catalog

from helpers import duel_data, load_data

ROOT = Path(__file__).resolve().parents[1]
AUDIT = Path(os.environ.get("MB41_AUDIT", "/work/shared/rules/RULES_AUDIT.md"))


# ------------------------------------------------------------------ the audit table


def _clean(name: str) -> str:
    """'**[Bulwark]**' -> 'Bulwark'; 'Follow Target*' -> 'Follow Target'."""
    return name.replace("**", "").strip().strip("[]*").strip()


def audit_rows() -> list[dict]:
    """Numbered rows of the audit's section 2 table: number, name, group, sim column."""
    if not AUDIT.exists():
        pytest.skip(f"rules audit not found at {AUDIT}")
    text = AUDIT.read_text(encoding="utf-8")
    start = text.index("# 2. Talent catalog")
    end = text.index("## 2.1", start)
    rows = []
    for line in text[start:end].splitlines():
        m = re.match(r"^\|\s*(\d+)\s*\|(.*)\|\s*$", line)
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split("|")]
        bold = re.match(r"\*\*(.+?)\*\*", cells[0])
        name = _clean(bold.group(1) if bold else cells[0])
        rows.append({"number": int(m.group(1)), "name": name, "name_cell": cells[0],
                     "group": cells[1].split(" ")[0].strip(), "starting": "(starting)" in cells[1],
                     "sim": cells[-1]})
    return rows


def test_audit_table_parses():
    rows = audit_rows()
    assert [r["number"] for r in rows] == list(range(1, len(rows) + 1))
    assert len(rows) >= 100


#: rows the audit calls narrative that have fight numbers and are simulated since (issue 35)
FIGHT_NUMBERS_SINCE = {"Possession"}  # L2073-2076: -3 attributes and damage, +1d6 taken, the host


def test_every_audit_row_is_in_the_catalog():
    by_row = {r.audit_row: r for r in catalog.rows()}
    missing, wrong = [], []
    for a in audit_rows():
        row = by_row.get(a["number"])
        if row is None:
            missing.append(f"{a['number']} {a['name']}")
            continue
        names = {row.name.casefold(), *(x.casefold() for x in row.aliases)}
        # the monster's [Teleport] is renamed (the girls' Teleport owns the name): its note says so
        same_name = a["name"].casefold() in names or a["name"] in (row.notes or "")
        if not same_name:
            wrong.append(f"{a['number']}: audit {a['name']!r} vs catalog {row.name!r}")
        if row.group != a["group"]:
            wrong.append(f"{a['number']} {a['name']}: group {row.group!r} vs audit {a['group']!r}")
        if row.starting != a["starting"]:
            wrong.append(f"{a['number']} {a['name']}: starting {row.starting} vs audit")
        if row.matters_in_fight != a["sim"].startswith("yes") and row.name not in FIGHT_NUMBERS_SINCE:
            wrong.append(f"{a['number']} {a['name']}: matters_in_fight {row.matters_in_fight} vs {a['sim']!r}")
    assert not missing, f"audit rows missing from the catalog: {missing}"
    assert not wrong, "\n".join(wrong)
    assert len(catalog.rows()) == len(audit_rows())


def test_name_markers_follow_the_audit():
    by_row = {r.audit_row: r for r in catalog.rows()}
    for a in audit_rows():
        row, cell = by_row[a["number"]], a["name_cell"]
        if "(name inferred" in cell:
            assert row.name_source == "inferred", row.name
        elif "(from draft" in cell:
            assert row.name_source == "draft", row.name
        elif "(name from 4.1 text" in cell:
            assert row.name_source == "4.1-text", row.name
        else:
            assert row.name_source == "4.1", row.name
        assert row.asterisk == ("*" in cell.split("(")[0].replace("**", "")), row.name


# ------------------------------------------------------------------ the catalog itself


def test_catalog_loads_and_validates():
    rows = catalog.rows()
    assert all(isinstance(r, catalog.CatalogRow) for r in rows)
    assert catalog.rows() is rows  # lru_cache: loaded once
    names = [n.casefold() for r in rows for n in (r.name, *r.aliases)]
    assert len(names) == len(set(names))
    assert set(catalog.groups()) <= set(catalog.GROUPS)
    assert catalog.groups() == {"basic": 2, "guardian-knight": 11, "striker": 11, "medium": 11, "common": 20,
                                "boss": 11, "monster": 24, "minion": 2, "labyrinth": 10}
    assert sum(r.starting for r in rows) == 6


SIMULATED = ["Boost", "And Your Enemies Closer", "Reflector", "Follow Target", "Want it Hard, Want it Now",
             "Link", "Power Dampening", "Battle Sorcery", "Bonus Action", "Bypass", "Fight for Friends",
             "Hate the World", "Heal", "Inflict", "Shield", "Remedy", "Teleport", "Mid-Childan System",
             "Belkan System", "Aura of Strength", "Create Barrier", "Defensive Switch", "Desperation", "Get Over Here",
             "Life Bomb", "Second Wind", "Sprint", "Steal Action", "Courage Aura", "Curse", "Dampen Overcharge",
             "Guided Strike", "Healing Magic", "Wave of Courage", "Implode", "Make an Opening", "Safe Place",
             "All or Nothing", "Amplify Magic", "Blast Strike", "Dash Strike", "Drain Life", "Follow Up",
             "Killing Blow", "Marionette", "Rough Going", "Action Burst", "Backlash", "Blood Rain",
             "Burst Attack", "Deafening Scream", "Extra Action", "Minion Creation", "Minion Explosion",
             "Shrug Off", "Thick Hide", "Undying Brood", "Ambush Tactics", "Binding Attack", "Bulwark",
             "Curse Shift", "Debilitating Attack", "Disruptive Strikes", "Fear Aura", "Gravity Wave",
             "Lashing Ground", "Overcharge Radiation", "Memory Blaze", "Mines", "Monster Boost", "Possession", "Pounce",
             "Ranged/Melee Defence", "Repel", "Scattering shot", "Seal Magic", "Slither Away", "Swift",
             "Monster Teleport", "Veil", "A Little Longer", "Hello There", "Alternating Damage", "Current",
             "Escher Doors", "Pendulum", "Perilous Terrain", "Wraparound"]


def test_simulated_rows_are_exactly_those_with_a_kernel_mechanic():
    from sim.systems.mb41 import talents as mechanics

    assert catalog.simulated_names() == SIMULATED
    assert [r["name"] for r in catalog.talents() if r["simulated"]] == SIMULATED
    mechanics.check_catalog()  # every simulated row names a known mechanic
    for r in catalog.rows():
        if r.name != "Boost":
            assert r.simulated == bool(r.mechanic), r.name
    assert "Boost" in catalog.talent_names() and "Deafening Scream" in catalog.talent_names()


def test_every_simulated_row_is_named_by_a_scenario_test():
    """Every simulated row of the 4.1 and the draft catalogs is named (as a quoted string) in
    a test file other than this one; a labyrinth feature by its battlefield key (``current=``,
    ``"pendulum":``...): a talent added to a catalog without a test fails here."""
    from sim.systems.mbdraft import catalog as draft_catalog

    here = Path(__file__).resolve()
    text = "\n".join(p.read_text() for p in here.parent.glob("test_*.py") if p != here)

    def named(r) -> bool:
        if r.group == "labyrinth":
            key = {"wraparound": "wrap"}.get(r.mechanic["code"], r.mechanic["code"])  # battlefield.wrap
            return f"{key}=" in text or f'"{key}":' in text
        return f'"{r.name}"' in text or f"'{r.name}'" in text

    rows = [r for r in catalog.rows() if r.simulated] + [r for r in draft_catalog.rows() if r.simulated]
    assert len(rows) > 100
    assert [r.name for r in rows if not named(r)] == []


def test_rows_are_complete_dicts():
    fields = set(catalog.CatalogRow.model_fields)
    for r in catalog.talents():
        assert set(r) == fields
        json.dumps(r)
    assert catalog.catalog_rows() == [dict(r) for r in catalog.talents()]


def test_numbers_spot_checks():
    by = catalog.by_name()
    assert by["Boost"].numbers == {"extra_dice": 1, "damage_bonus": 2} and by["Boost"].uses_per_scene == 3
    assert by["Heal"].numbers["heal"] == "1d6+1" and (by["Heal"].cost, by["Heal"].cost_stat) == (1, "support")
    assert by["Shield"].numbers["damage_reduction_per_oc"] == 5
    assert by["Killing Blow"].ambiguity == ["A37"]
    assert by["Create Barrier"].numbers["barrier_resolve"] == 20 and by["Create Barrier"].uses_per_episode == 1
    assert by["Deafening Scream"].cost_stat == "pool" and by["Deafening Scream"].numbers["radius"] == 3
    assert by["Alternating Damage"].numbers["damage"] == 3
    assert catalog.lookup("purge").name == "Remedy"
    assert catalog.lookup("Healing Wave").name == "Wave of Courage"
    assert catalog.lookup("Teleport (monster)").name == "Monster Teleport"
    assert catalog.lookup("nothing such") is None


def test_example_minions():
    ex = {m["name"]: m for m in catalog.example_minions()}
    imps, nanny = ex["Maintenance imps"], ex["Spider nanny"]
    assert (imps["hp"], imps["passive_defence"], imps["att_supp"]) == (4, 6, 2)
    assert {t["name"]: t["uses_per_scene"] for t in imps["talents"]} == {"Veil": 1, "Mines": 3}
    assert (nanny["hp"], nanny["passive_defence"], nanny["att_supp"]) == (3, 5, 5)
    assert {t["name"]: t["uses_per_scene"] for t in nanny["talents"]} == {"A Little Longer": 2, "Hello There": 1}
    g = catalog.minions().guidelines
    assert (g.passive_defence_start, g.passive_defence_monster_above, g.hp_suggested) == (4, 7, 4)


def test_row_model_rejects_bad_rows():
    good = dict(yaml.safe_load((ROOT / "sim/systems/mb41/catalog/talents.yaml").read_text(encoding="utf-8"))[0])
    catalog.CatalogRow.model_validate(good)
    for bad in ({"group": "wizard"}, {"action": "sideways"}, {"cost_stat": "luck"}, {"colour": "red"},
                {"ambiguity": ["B1"]}, {"source": "line 5"}, {"cost": 1, "cost_stat": None},
                {"simulated": True, "matters_in_fight": False}, {"range_hexes": [3, 1]}):
        with pytest.raises(ValidationError):
            catalog.CatalogRow.model_validate({**good, **bad})


def test_duplicate_names_are_rejected(monkeypatch, tmp_path):
    for f in catalog.FILES + ("minions.yaml",):
        (tmp_path / f).write_text((catalog._DIR / f).read_text(encoding="utf-8"), encoding="utf-8")
    rows = yaml.safe_load((tmp_path / "labyrinth.yaml").read_text(encoding="utf-8"))
    rows[0]["aliases"] = ["heal"]  # case-insensitive clash with the common talent Heal
    (tmp_path / "labyrinth.yaml").write_text(yaml.safe_dump(rows), encoding="utf-8")
    monkeypatch.setattr(catalog, "_DIR", tmp_path)
    catalog.rows.cache_clear()
    try:
        with pytest.raises(ValueError, match="already used by 'Heal'"):
            catalog.rows()
    finally:
        monkeypatch.undo()
        catalog.rows.cache_clear()
    assert len(catalog.rows()) == 102


# ------------------------------------------------------------------ CLI and schema


def test_cli_catalog_json_lists_everything():
    env = dict(os.environ)
    env.pop("SIM_DEBUG", None)
    res = subprocess.run([sys.executable, "-m", "sim.cli", "catalog", "mb41", "--json"], capture_output=True,
                         text=True, cwd=ROOT, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    entries = json.loads(res.stdout)["entries"]
    assert len(entries) == len(catalog.rows())
    assert all({"name", "group", "simulated", "matters_in_fight", "action", "cost", "uses", "effect"} <= set(e)
               for e in entries)
    assert {e["name"] for e in entries} == set(catalog.talent_names())
    assert [e["name"] for e in entries if e["simulated"]] == SIMULATED


def test_schema_suggests_boost_for_a_misspelling():
    with pytest.raises(ScenarioError) as e:
        load_data(duel_data(a={"talents": ["Bost"]}))
    assert "unknown talent 'Bost'" in str(e.value) and "Did you mean 'Boost'?" in str(e.value)


@pytest.mark.parametrize("name", ["Make up", "Aura Reading", "Tracking shot"])
def test_schema_rejects_known_but_unsimulated(name):
    with pytest.raises(ScenarioError) as e:
        load_data(duel_data(a={"talents": [name]}))
    msg = str(e.value)
    assert f"talent '{name}' is in the catalog but not simulated yet" in msg and "Boost" in msg


def test_schema_accepts_boost():
    load_data(duel_data(a={"talents": ["Boost"]}))
