"""The kernel's packed rule indices agree with the rule table (a stale index
would silently read the wrong rule)."""
from __future__ import annotations

from sim.systems.mb41 import kernel as K
from sim.systems.mb41.rules import RULES


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
