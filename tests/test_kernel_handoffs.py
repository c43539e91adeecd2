"""Two kernel behaviours the audit of issue 36 found, written as the rule they should
follow, with scripted dice; fixed in issue 35's pass (they were strict xfails before).

* ``scream_min`` keeps a monster attacking: :func:`.talents.afflictions.try_scream`
  screamed whenever every enemy left in its area lacked the ailment, whatever
  ``scream_min``; in the audit's duo encounters Blood Rain cost its monster 19-23 points
  and Deafening Scream 12-16 (4,000 trials a cell). Now fewer than ``scream_min`` open
  targets never scream (default 3).
* A ``low_resolve`` talent given a cost or a use limit in a ``talents:`` block (the
  issue's "+1 attack and +1 damage below half Resolve, 2 overcharge, once a scene") is
  paid and limited (:func:`.talents.riders.h_low_resolve`); the catalog's rows (no cost,
  no limit) play as before.
"""
from __future__ import annotations

import pytest
from helpers import Script, faces, mb41_data, mb41_inputs, mb41_state
from helpers import mb41_boss as boss, mb41_girl as girl, mb41_run as call, mb41_setup as setup

from engine41 import K

MISS = faces(1, 1, 3, 3)     # a girl 2 + 4 = 6 vs 6 + 3 = 9
M_MISS = faces(1, 1, 3, 3)   # the boss 2 + 3 = 5 vs 6 + 4 = 10


def test_scream_min_above_the_targets_keeps_the_monster_attacking():
    inp, dyn, cc = setup([boss(talents=["Deafening Scream"], policy={"scream_min": 3})],
                         [girl("Akari"), girl("Beni")])
    call(K.take_turn, inp, dyn, cc, Script(check=M_MISS), i=0)
    assert cc[0, K.K_ATTACKS] == 1 and dyn[0, K.D_POOL] == 10


def test_a_paid_once_a_scene_low_resolve_rider_is_paid_then_spent():
    d = mb41_data([girl("Akari", talents=["Glass Heart"])], [boss("Shade")])
    d["talents"] = {"Glass Heart": {"mechanic": "low_resolve", "attack": 1, "damage": 1, "cost": 2,
                                    "cost_stat": "attack", "uses_per_scene": 1}}
    inp = mb41_inputs(d)
    dyn, cc = mb41_state(inp)
    dyn[0, K.D_RES] = 9  # half her 18: the condition holds
    stat = K.D_OC + int(inp.comb[0, K.C_TROLE])  # the magical stat filling the Attack role
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert dyn[0, stat] == 2 and dyn[0, K.D_TUSES] == 0  # paid 2 Attack overcharge, its one use spent
    call(K.take_turn, inp, dyn, cc, Script(check=MISS), i=0)
    assert dyn[0, stat] == 2  # no use left: no bonus, nothing paid
