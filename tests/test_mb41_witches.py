"""Witches, 4.1 (seed 000 L2216-2222; audit item 65, A36): one overcharge
counter like a monster's pool, paid for talents (girl or monster talents),
that still grows with every six she rolls, up to a cap of 10 (13 or more
for an older witch); no flairs or bursts; out at 0 Resolve (no revive).
Injected dice.
"""
from __future__ import annotations

import pytest
from helpers import Script, faces, load_data, mb41_data, mb41_inputs, mb41_member, mb41_state
from helpers import mb41_run as call

from sim.scenario.errors import ScenarioError
from sim.systems.mb41 import fast
from engine41 import K


def witch(**kw):
    m = {"kind": "witch", "attack": 4, "defence": 3, "support": 3}
    m.update(kw)
    return mb41_member("Hexe", **m)


def setup(me, rules=None):
    inp = mb41_inputs(mb41_data([mb41_member("Akari", attack=4, defence=4, support=3)], [me], rules))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def test_a_witch_compiles_with_one_full_counter_and_a_girls_resolve():
    inp, dyn, cc = setup(witch())
    assert inp.comb[1, K.C_MONSTER] == K.WITCH
    assert inp.comb[1, K.C_POOL] == 10 and inp.comb[1, K.C_POOL_CAP] == 10
    assert inp.comb[1, K.C_RES] == 18 and inp.comb[1, K.C_BOOSTS] == 0
    assert inp.comb[1, K.C_DMG] == 2                                     # a girl's melee attack: 1d6 + 2
    assert setup(witch(), rules={"witch_pool_start": "empty"})[0].comb[1, K.C_POOL] == 0
    older = setup(witch(pool_cap=13, overcharge_pool=4))[0]
    assert older.comb[1, K.C_POOL] == 4 and older.comb[1, K.C_POOL_CAP] == 13


def test_her_sixes_fill_her_counter_up_to_the_cap():
    """She "still gains overcharge whenever she rolls 6s" (L2218), to her cap."""
    inp, dyn, cc = setup(witch(overcharge_pool=8))
    # 6 + 6 + 1 + 1 (each six adds a die) + 4 = 18 vs 1 + 1 + 4 = 6: a hit
    call(K.attack, inp, dyn, cc, Script(check=faces(6, 6, 1, 1, 1, 1), damage=faces(1)), i=1, t=0)
    assert dyn[1, K.D_POOL] == 10 and cc[1, K.K_OC_GAIN] == 2
    call(K.attack, inp, dyn, cc, Script(check=faces(6, 2, 1, 1, 1), damage=faces(1)), i=1, t=0)
    assert dyn[1, K.D_POOL] == 10 and cc[1, K.K_OC_GAIN] == 2          # capped
    assert list(dyn[1, K.D_OC:K.D_OC + 3]) == [0, 0, 0]                 # no per-stat counters, no bursts
    assert cc[1, K.K_BURSTS:K.K_BURSTS + 3].sum() == 0


def test_she_pays_talents_from_her_counter():
    """Binding Attack (a monster talent, 1 overcharge) comes out of her one counter."""
    inp, dyn, cc = setup(witch(talents=["Binding Attack"]))
    call(K.attack, inp, dyn, cc, Script(check=faces(3, 3, 1, 1), damage=faces(1)), i=1, t=0)
    assert dyn[1, K.D_POOL] == 9 and cc[1, K.K_POOL_SPENT] == 1
    assert dyn[0, K.D_AIL + K.A_BOUND] == 1


def test_she_is_out_at_zero_resolve():
    inp, dyn, cc = setup(witch())
    call(K.apply_damage, inp, dyn, cc, Script(), t=1, dmg=18)
    assert dyn[1, K.D_DEAD] == 1 and dyn[1, K.D_PENDING] == -1


def test_the_duel_fast_path_refuses_witches():
    inp = mb41_inputs(mb41_data([mb41_member("Akari")], [witch()]))
    assert "no witches" in fast.eligible(inp)


@pytest.mark.parametrize("fields, message", [
    ({"talents": ["Boost"]}, "Monster Boost"),
    ({"spread": 2}, "'spread' is for monsters"),
    ({"overcharge_pool": 12}, "above the witch's pool_cap 10"),
])
def test_bad_witches_get_clear_errors(fields, message):
    with pytest.raises(ScenarioError, match=message):
        load_data(mb41_data([mb41_member("Akari")], [witch(**fields)]))


def test_pool_cap_is_for_witches():
    with pytest.raises(ScenarioError, match="'pool_cap' is for witches"):
        load_data(mb41_data([mb41_member("Akari", pool_cap=12)], [witch()]))
