"""The d10 kernel's packed rule indices agree with the rule table."""
from __future__ import annotations

from sim.systems.d10 import catalog
from sim.systems.d10 import kernel as K
from sim.systems.d10.rules import RULES


def test_kernel_rule_indices_match_table():
    for opt in RULES.options:
        const = "R_" + opt.name.upper()
        assert hasattr(K, const), f"kernel has no index constant {const} for rule {opt.name}"
        assert getattr(K, const) == RULES.index(opt.name), f"{const} is stale"
    assert K.R_SIZE == RULES.size


def test_every_rule_has_a_note_and_valid_default():
    for opt in RULES.options:
        assert opt.note
        assert opt.check(opt.default) == opt.default


def test_catalog_rows_complete():
    rows = catalog.entries()
    powers = {r["name"] for r in rows if r["kind"] == "power"}
    perks = {r["name"] for r in rows if r["kind"] == "perk"}
    assert powers == {"Killing Blow", "Hammerspace", "Familiar", "Focused Assault", "Barrage", "Power of Friendship",
                      "Duplication", "Third Eye", "Regeneration", "Tentacles"}
    assert perks == {"Dual Weapon", "Martial Training", "Enhanced Weapon", "Mystic Artifact", "Gifted", "Flexibility",
                     "Enhanced Transformation", "Disguise Artifact", "Blood Magic", "Enhanced Outfit",
                     "Healing Artifact", "Sorcery", "Awareness"}
    for r in rows:
        assert r["source"].startswith("L")
        assert isinstance(r["simulated"], bool)
        assert r["simulated"] == (r["code"] != "none")
    for r in rows:
        if r["code"] == "dice":
            assert set(r["params"]["tests"]) <= set(K.TEST_NAMES)
