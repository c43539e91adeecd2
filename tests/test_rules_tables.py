"""Every kernel's packed rule indices agree with its rule table (a stale index
would silently read the wrong rule), and every option has a note and a valid default."""
from __future__ import annotations

import importlib

import pytest

KERNELS = {"mb41": "sim.systems.mb41.layout", "mb-draft": "sim.systems.mb41.layout", "d10": "sim.systems.d10.kernel"}


@pytest.mark.parametrize("system", list(KERNELS))
def test_kernel_rule_indices_match_table(system):
    from sim.systems import get_system

    rules = get_system(system).RULES
    K = importlib.import_module(KERNELS[system])
    for opt in rules.options:
        const = "R_" + opt.name.upper()
        assert hasattr(K, const), f"kernel has no index constant {const} for rule {opt.name}"
        assert getattr(K, const) == rules.index(opt.name), f"{const} is stale"
    assert K.R_SIZE == rules.size


@pytest.mark.parametrize("system", ["mb41", "mb-draft", "d10", "cards"])
def test_every_rule_has_a_note_and_valid_default(system):
    from sim.systems import get_system

    for opt in get_system(system).RULES.options:
        assert opt.note
        assert opt.check(opt.default) == opt.default
