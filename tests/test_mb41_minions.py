"""Minions (seed 000 L2168-2214, audit 1.14, A35) with injected dice.

A minion does not roll defence: an attack hits when its total exceeds the
passive defence, or equals it with a six (``minion_tie: six``, the audit's
sim default). Minions have HP boxes, one number for attack and support, no
damage bonus and no overcharge; their dice still explode.
"""
from __future__ import annotations

import pytest

from helpers import Script, faces, load_data, mb41_call, mb41_data, mb41_inputs, mb41_member, mb41_state
from sim.scenario import ScenarioError
from engine41 import K

AKARI, IMP = 0, 1


def setup(minion=None, rules=None, akari=None):
    m = {"name": "Imp", "kind": "minion", "attack": 2, "hp": 4, "passive_defence": 6}
    m.update(minion or {})
    data = mb41_data([mb41_member("Akari", attack=4, defence=4, support=3, **(akari or {}))], [m], rules)
    inp = mb41_inputs(data)
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def strike(inp, dyn, cc, i, t, check=(), damage=()):
    s = Script(check=check, damage=damage)
    dealt = int(mb41_call(K.attack, i=i, t=t, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn,
                          streams=s.streams, cc=cc))
    s.assert_consumed()
    return dealt


def test_minion_row_is_passive_and_has_no_overcharge():
    inp, dyn, _ = setup()
    assert inp.comb[IMP, K.C_PDEF] == 6 and inp.comb[IMP, K.C_RES] == 4
    assert inp.comb[IMP, K.C_ATT] == inp.comb[IMP, K.C_SUP] == 2
    assert inp.comb[IMP, K.C_POOL] == 0 and inp.comb[IMP, K.C_BOOSTS] == 0
    assert inp.comb[AKARI, K.C_PDEF] == -1


@pytest.mark.parametrize("rule,dice,hit", [
    ("six", faces(1, 2), True),          # 3 + 4 = 7 > 6: hits; only the attack is rolled
    ("six", faces(1, 1), False),         # 6 = 6, no six: misses
    ("exceed", faces(1, 1), False),
    ("meet", faces(1, 1), True),         # 6 = 6 meets
])
def test_passive_defence_contest(rule, dice, hit):
    """L2170: no defence roll; A35: ties per ``minion_tie``."""
    inp, dyn, cc = setup(rules={"minion_tie": rule})
    dealt = strike(inp, dyn, cc, AKARI, IMP, check=dice, damage=faces(1) if hit else ())
    assert (dealt >= 0) == hit
    assert cc[AKARI, K.K_HITS] == int(hit)


def test_equal_total_with_a_six_hits_under_the_default():
    """A35 default: total = passive defence, with a six -> hit (6 explodes: 6 + 1 + ... )."""
    inp, dyn, cc = setup(minion={"passive_defence": 15})
    dealt = strike(inp, dyn, cc, AKARI, IMP, check=faces(6, 4, 1), damage=faces(2))  # 6+4+1 +4 = 15, one six
    assert dealt >= 0
    # damage: d6 2 + melee 2 + 2 per attacker six (1) = 6, and the minion has 4 HP -> 4 taken, dead
    assert dyn[IMP, K.D_RES] == 0 and dyn[IMP, K.D_DEAD] == 1 and dealt == 4
    assert cc[IMP, K.K_DEATHS] == 1


def test_minion_attack_no_damage_bonus_no_overcharge():
    """L2172: no damage bonus, no overcharge meter; its sixes still explode and add +2 damage."""
    inp, dyn, cc = setup(minion={"attack": 5})
    # Imp attacks Akari: 2d6! = 6 (explodes) 3, 2 -> 11 + 5 = 16 vs Akari 2d6! 1,1 + 4 = 6 -> hit
    dealt = strike(inp, dyn, cc, IMP, AKARI, check=faces(6, 3, 2, 1, 1), damage=faces(3))
    assert dealt == 3 + 2 + 2  # d6 + melee 2 + 2 per six; no monster bonus
    assert dyn[IMP, K.D_POOL] == 0 and cc[IMP, K.K_POOL_SPENT] == 0
    assert list(dyn[IMP, K.D_OC:K.D_OC + 3]) == [0, 0, 0]


def test_attacker_boosts_against_passive_defence_when_losing():
    """Boost after the roll works against a passive defence (the deficit is to the defence)."""
    inp, dyn, cc = setup(akari={"policy": {"boost": "when-losing-by 3", "overcharge_cap": 99}})
    # 1+1+4 = 6 = passive 6 without a six: losing by 0 -> boost die 3 -> 9 > 6, hit
    dealt = strike(inp, dyn, cc, AKARI, IMP, check=faces(1, 1, 3), damage=faces(1))
    assert dealt >= 0 and cc[AKARI, K.K_BOOSTS] == 1


def _member(text: str):
    data = mb41_data([mb41_member("Akari")], [text])
    return load_data(data)


def test_template_count_and_errors():
    loaded = _member({"name": "Imp", "kind": "minion", "template": "Maintenance imps", "count": 3})
    from sim.systems import mb41

    inp = mb41.compile(loaded.base)
    assert inp.names == ["Akari", "Imp 1", "Imp 2", "Imp 3"]
    assert list(inp.comb[1:, K.C_PDEF]) == [6, 6, 6] and list(inp.comb[1:, K.C_RES]) == [4, 4, 4]
    nanny = mb41.compile(_member({"name": "N", "kind": "minion", "template": "Spider nanny"}).base)
    assert nanny.comb[1, K.C_ATT] == 5 and nanny.comb[1, K.C_PDEF] == 5 and nanny.comb[1, K.C_RES] == 3
    with pytest.raises(ScenarioError, match="Did you mean 'Spider nanny'"):
        _member({"name": "N", "kind": "minion", "template": "Spider nany"})
    with pytest.raises(ScenarioError, match="same number for attack and support"):
        _member({"name": "N", "kind": "minion", "attack": 3, "support": 4})
    with pytest.raises(ScenarioError, match="for minions"):
        _member({"name": "N", "attack": 3, "defence": 3, "support": 3, "passive_defence": 5})
