"""Overcharge talents of 4.1 (seed 000): Power Dampening (L1554-1558), Dampen
Overcharge (L1748-1752) and the monster talent Overcharge Radiation
(L2047-2049), each with injected dice showing its effect as the book states.

Default roles (tests/helpers.py): attack = fury, defence = heart, support =
judgment. ``girl`` is 4/4/3 (attack/defence/support), Resolve 18;
``mb41_member`` is 3/3/3. Gridless fights.
"""
from __future__ import annotations

import numpy as np
from helpers import Script, faces, mb41_boss, mb41_member
from helpers import mb41_girl as girl, mb41_run as call, mb41_setup as setup

from engine41 import K

HEART, FURY, JUDGMENT = 0, 1, 2


def strike(inp, dyn, cc, script, i=0, t=2):
    """One basic attack of ``i`` on ``t``."""
    return call(K.attack, inp, dyn, cc, script, i=i, t=t)


# ------------------------------------------------------------------ Power Dampening


def test_a_one_on_her_attack_removes_one_overcharge_from_the_fullest_counter():
    """L1556: 'If one of the dice on your magical action comes up a 1, you can
    remove 1 point of Overcharge from an ally or yourself' (free, 2/Scene)."""
    inp, dyn, cc = setup([girl("Akari", talents=["Power Dampening"]), girl("Bea")], [mb41_member("Shade")])
    dyn[0, K.D_OC + FURY] = 5
    dyn[1, K.D_OC + HEART] = 7           # Bea's heart is the fullest counter of the side
    # Akari 1 + 3 + 4 = 8 vs Shade 2 + 2 + 3 = 7: a hit for 1 + 2 melee
    strike(inp, dyn, cc, Script(check=faces(1, 3, 2, 2), damage=faces(1)))
    assert dyn[2, K.D_RES] == 15
    assert dyn[1, K.D_OC + HEART] == 6 and dyn[0, K.D_OC + FURY] == 5
    assert dyn[0, K.D_TUSES] == 1 and cc[0, K.K_TUSE] == 1
    assert cc[1, K.K_DAMPENED] == 1


def test_no_one_no_dampening_and_two_uses_a_scene():
    inp, dyn, cc = setup([girl("Akari", talents=["Power Dampening"])], [mb41_member("Shade")])
    dyn[0, K.D_OC + FURY] = 5
    strike(inp, dyn, cc, Script(check=faces(2, 3, 2, 2), damage=faces(1)), t=1)   # no 1: nothing
    assert dyn[0, K.D_OC + FURY] == 5 and dyn[0, K.D_TUSES] == 2
    for _ in range(3):   # a 1 each time (3 + 1 + 4 = 8 vs 16 + 3: misses), but two uses a scene
        strike(inp, dyn, cc, Script(check=faces(3, 1, 6, 6, 2, 2)), t=1)
    # her own fury is the fullest: 5 - 1 - 1, the third 1 finds no use left
    assert dyn[0, K.D_OC + FURY] == 3 and dyn[0, K.D_TUSES] == 0
    assert cc[0, K.K_TUSE] == 2 and cc[0, K.K_DAMPENED] == 2


def test_a_one_on_an_exploded_die_counts_and_can_avert_a_burst():
    """The sixes' overcharge comes first, the dampening before the burst check:
    fury 12 + one six = 13 would burst; a 1 after the explosion takes it back."""
    inp, dyn, cc = setup([girl("Akari", talents=["Power Dampening"])], [mb41_member("Shade")],
                         rules={"bursts": "play"})
    dyn[0, K.D_OC + FURY] = 12
    # 6, 2 and the explosion's 1: 9 + 4 = 13 vs 2 + 2 + 3 = 7, a hit: 1 + 2 + 2 (six)
    strike(inp, dyn, cc, Script(check=faces(6, 2, 1, 2, 2), damage=faces(1)), t=1)
    assert dyn[1, K.D_RES] == 13
    assert dyn[0, K.D_OC + FURY] == 12 and dyn[0, K.D_PEND + FURY] == 0
    assert cc[0, K.K_BURSTS + FURY] == 0


def test_defence_rolls_count_only_with_power_dampening_rolls_any():
    for mode, expect in (("attack", 4), ("any", 3)):
        inp, dyn, cc = setup([girl("Akari", talents=["Power Dampening"])], [mb41_member("Shade")],
                             rules={"power_dampening_rolls": mode})
        dyn[0, K.D_OC + HEART] = 4
        # Shade 2 + 2 + 3 = 7 vs Akari's defence 1 + 2 + 4 = 7: a tie her higher stat wins
        strike(inp, dyn, cc, Script(check=faces(2, 2, 1, 2)), i=1, t=0)
        assert dyn[0, K.D_OC + HEART] == expect, mode


# ------------------------------------------------------------------ Dampen Overcharge


def test_dampen_overcharge_halves_the_gain_that_would_make_an_ally_burst():
    """L1750: 'reduce the amount of Overcharge they take from that action to half
    (round down)'; Free, 2/Scene, 1 Overcharge (Support) paid by the Medium."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Dampen Overcharge"])], [mb41_member("Shade")],
                         rules={"bursts": "play"})
    dyn[0, K.D_OC + FURY] = 11
    # Akari 6, 6, then 1, 2 after the explosions: 15 + 4 = 19 vs 7; two sixes: 11 + 2 = 13 would burst
    strike(inp, dyn, cc, Script(check=faces(6, 6, 1, 2, 2, 2), damage=faces(1)))
    assert dyn[0, K.D_OC + FURY] == 12 and cc[0, K.K_BURSTS + FURY] == 0
    assert cc[0, K.K_OC_GAIN + FURY] == 1 and cc[0, K.K_DAMPENED] == 1
    assert dyn[1, K.D_OC + JUDGMENT] == 1       # Bea paid 1 on her Support stat
    assert dyn[1, K.D_TUSES] == 1 and cc[1, K.K_TUSE] == 1


def test_dampen_overcharge_waits_for_a_burst_it_can_stop():
    """``dampen_overcharge_ai: burst``: a gain that does not burst, or one whose
    half still bursts, is left alone; ``always`` halves every gain of 2+."""
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Dampen Overcharge"])], [mb41_member("Shade")])
    strike(inp, dyn, cc, Script(check=faces(6, 6, 1, 2, 2, 2), damage=faces(1)))
    assert dyn[0, K.D_OC + FURY] == 2 and dyn[1, K.D_TUSES] == 2
    dyn[0, K.D_OC + FURY] = 12     # 12 + 1 (half of 2) = 13 bursts anyway
    strike(inp, dyn, cc, Script(check=faces(6, 6, 1, 2, 2, 2), damage=faces(1)))
    assert dyn[0, K.D_OC + FURY] == 14 and dyn[1, K.D_TUSES] == 2
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Dampen Overcharge"])], [mb41_member("Shade")],
                         rules={"dampen_overcharge_ai": "always"})
    strike(inp, dyn, cc, Script(check=faces(6, 6, 6, 1, 2, 2, 2), damage=faces(1)))  # three sixes: 3 // 2 = 1
    assert dyn[0, K.D_OC + FURY] == 1 and dyn[1, K.D_TUSES] == 1 and cc[0, K.K_DAMPENED] == 2


def test_dampen_overcharge_is_for_an_ally_unless_dampen_self():
    for self_ok, expect in ((False, 13), (True, 12)):
        inp, dyn, cc = setup([girl("Bea", talents=["Dampen Overcharge"])], [mb41_member("Shade")],
                             rules={"dampen_self": self_ok})
        dyn[0, K.D_OC + FURY] = 11
        strike(inp, dyn, cc, Script(check=faces(6, 6, 1, 2, 2, 2), damage=faces(1)), t=1)
        assert dyn[0, K.D_OC + FURY] == expect, self_ok


def test_the_medium_does_not_burst_herself_to_dampen():
    inp, dyn, cc = setup([girl("Akari"), girl("Bea", talents=["Dampen Overcharge"])], [mb41_member("Shade")])
    dyn[0, K.D_OC + FURY] = 11
    dyn[1, K.D_OC + JUDGMENT] = 12   # paying 1 would make Bea burst
    strike(inp, dyn, cc, Script(check=faces(6, 6, 1, 2, 2, 2), damage=faces(1)))
    assert dyn[0, K.D_OC + FURY] == 13 and dyn[1, K.D_TUSES] == 2


# ------------------------------------------------------------------ Overcharge Radiation


def radiate(inp, dyn, cc, script):
    call(K.scene_end, inp, dyn, cc, script)


def test_radiation_gives_every_girl_1d6_on_the_role_of_the_monsters_highest_attribute():
    """L2049: 'each magical girl takes 1d6 Overcharge points on the monster's
    highest attribute'; A34 (a): the girl's stat filling that role."""
    glow = mb41_boss("Glow", defence=5, talents=["Overcharge Radiation"])   # 3/5/3: Defence is highest
    inp, dyn, cc = setup([girl("Akari"), girl("Bea")], [glow])
    radiate(inp, dyn, cc, Script(check=faces(4, 2)))
    assert dyn[0, K.D_OC + HEART] == 4 and dyn[1, K.D_OC + HEART] == 2   # defence role = heart
    assert cc[0, K.K_RADIATION] == 4 and cc[1, K.K_RADIATION] == 2
    assert dyn[0, K.D_OC + FURY] == 0 and dyn[2, K.D_POOL] == 10


def test_radiation_skips_the_dead_and_follows_radiation_stat_fullest():
    glow = mb41_boss("Glow", attack=6, talents=["Overcharge Radiation"])
    inp, dyn, cc = setup([girl("Akari"), girl("Bea")], [glow], rules={"radiation_stat": "fullest"})
    dyn[0, K.D_OC + JUDGMENT] = 3
    dyn[1, K.D_DEAD] = 1
    radiate(inp, dyn, cc, Script(check=faces(5)))
    assert dyn[0, K.D_OC + JUDGMENT] == 8 and cc[1, K.K_RADIATION] == 0


def test_radiation_can_set_off_a_burst():
    glow = mb41_boss("Glow", attack=6, talents=["Overcharge Radiation"])
    inp, dyn, cc = setup([girl("Akari")], [glow])
    dyn[0, K.D_OC + FURY] = 10
    radiate(inp, dyn, cc, Script(check=faces(3)))
    assert cc[0, K.K_BURSTS + FURY] == 1


def test_radiation_is_played_at_the_end_of_every_fight():
    """Whole fights: each girl still alive at the end takes 1d6 (mean 3.5)."""
    from helpers import mb41_data, mb41_inputs

    from sim.rng import stream_key
    from sim.systems.mb41 import simulate

    glow = mb41_boss("Glow", resolve=12, talents=["Overcharge Radiation"])
    inp = mb41_inputs(mb41_data([girl("Akari")], [glow], rules={"revive": True}))
    n = 4000
    c = simulate(inp, 0, n, stream_key(3))
    k = c["combatants"]
    per_fight = k[0, K.K_RADIATION] / n
    assert 3.0 < per_fight < 3.6
    plain = mb41_inputs(mb41_data([girl("Akari")], [mb41_boss("Glow", resolve=12)], rules={"revive": True}))
    assert simulate(plain, 0, 500, stream_key(3))["combatants"][0, K.K_RADIATION] == 0
    assert np.all(k[:, K.K_RADIATION] >= 0)
