"""Talents in a Fury frenzy (seed 000 L752: "Instead of gaining Fury Overcharge
when using talents, she may spend it on using Talents, but only the Talents
linked to Fury Overcharge"; audit A9ii; rule ``fury_talents``), with injected dice.

Default roles (tests/helpers.py): attack = fury, defence = heart, support =
judgment; so Killing Blow (1 Attack overcharge) is linked to Fury and Shield
(1 Defence overcharge a point) is not, unless a girl's roles say otherwise.
"""
from __future__ import annotations

from helpers import Script, faces, mb41_call
from helpers import mb41_boss as boss, mb41_girl as girl, mb41_member, mb41_run as call, mb41_setup as setup

from engine41 import K
from sim.systems.mb41.rules import RULES

HEART, FURY, JUDGMENT = 0, 1, 2
HIT = faces(3, 3, 1, 1)        # 3 + 3 + 4 = 10 against 1 + 1 + 3 = 5
MISS = faces(1, 1, 5, 5)       # 6 against 13
#: Fury fills her Defence: Shield is linked to Fury (stats as heart/fury/judgment, L143)
FURY_DEFENDS = {"heart": 4, "fury": 4, "judgment": 3, "roles": {"attack": "heart", "defence": "fury",
                                                               "support": "judgment"}}


def frenzied(side_a, side_b, j=0, rules=None, fury=13):
    """Compile, then give ``j`` a Fury Burst at ``fury`` (her frenzy starts, L744)."""
    inp, dyn, cc = setup(side_a, side_b, rules=rules)
    dyn[j, K.D_OC + FURY] = fury
    call(K.check_bursts, inp, dyn, cc, Script(), i=j)
    call(K.settle, inp, dyn, cc, Script())
    assert dyn[j, K.D_FRENZY] != 0
    return inp, dyn, cc


def test_the_option_and_its_default():
    opt = RULES.option("fury_talents")
    assert opt.default == "fury_linked" and opt.choices == ("fury_linked", "and_costless", "none")
    assert "A9ii" in opt.note and "L752" in opt.note
    for k, name in enumerate(opt.choices):
        inp, dyn, cc = frenzied([girl()], [boss()], rules={"fury_talents": name})
        assert dyn[0, K.D_FRENZY] == 1 + k


def test_killing_blow_is_linked_to_fury_and_spends_it():
    """Killing Blow (L1821, 1 Attack overcharge; Fury fills her Attack) on the boss below a
    quarter of its 40 (9 * 4 < 40): used in the frenzy's attack, its cost spent from her Fury
    (13 - 1), then 2 more for the frenzy's +1d6 (L756); she gains no overcharge (L752).
    Damage 1 + 2 (melee 1d6 + 2, L1453) + (2 + 3) + 4 = 12 takes the boss's last 9."""
    inp, dyn, cc = frenzied([girl(talents=["Killing Blow"])], [boss()])
    dyn[1, K.D_RES] = 9
    # damage stream: regen 2; the attack's die 1; Killing Blow's 2 (+3); the frenzy's die 4
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(2, 1, 2, 4)), i=0)
    assert cc[0, K.K_TUSE] == 1 and dyn[0, K.D_TUSES] == -1   # no limit of uses
    assert dyn[0, K.D_OC + FURY] == 13 - 1 - 2 and cc[0, K.K_FURY_SPENT] == 3
    assert cc[0, K.K_OC_GAIN + FURY] == 0
    assert dyn[1, K.D_RES] == 0


def test_killing_blow_damage_in_the_frenzy_exactly():
    """A 90-Resolve boss at 20 (20 * 4 < 90): 1 + 2 + (2 + 3) + the frenzy's 4 = 12."""
    inp, dyn, cc = frenzied([girl(talents=["Killing Blow"])], [boss(resolve=90)])
    dyn[1, K.D_RES] = 20
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(2, 1, 2, 4)), i=0)
    assert dyn[1, K.D_RES] == 20 - (1 + 2 + (2 + 3) + 4)
    assert dyn[0, K.D_OC + FURY] == 10 and cc[0, K.K_TUSE] == 1


def test_no_killing_blow_when_fury_does_not_fill_her_attack():
    """Heart fills her Attack: Killing Blow is not linked to Fury; the frenzy's attack is a basic
    one (1 + 2, the frenzy's die 4), and Heart does not rise."""
    me = girl(talents=["Killing Blow"], attack=None, defence=None, support=None, **FURY_DEFENDS)
    inp, dyn, cc = frenzied([me], [boss(resolve=90)])
    dyn[1, K.D_RES] = 20
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(2, 1, 4)), i=0)
    assert cc[0, K.K_TUSE] == 0 and dyn[1, K.D_RES] == 20 - (1 + 2 + 4)
    assert dyn[0, K.D_OC + HEART] == 0 and dyn[0, K.D_OC + FURY] == 11


def test_fury_talents_none_turns_killing_blow_off():
    inp, dyn, cc = frenzied([girl(talents=["Killing Blow"])], [boss(resolve=90)], rules={"fury_talents": "none"})
    dyn[1, K.D_RES] = 20
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(2, 1, 4)), i=0)
    assert cc[0, K.K_TUSE] == 0 and dyn[1, K.D_RES] == 20 - (1 + 2 + 4) and dyn[0, K.D_OC + FURY] == 11


def test_last_point_of_fury_on_a_talent_ends_the_frenzy():
    """1 Fury left: Killing Blow takes it; the frenzy ends (L762) before the attack's own spend."""
    inp, dyn, cc = frenzied([girl(talents=["Killing Blow"])], [boss(resolve=90)])
    dyn[0, K.D_OC + FURY] = 1
    dyn[1, K.D_RES] = 20
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(2, 1, 2)), i=0)
    assert cc[0, K.K_TUSE] == 1 and dyn[1, K.D_RES] == 20 - (1 + 2 + (2 + 3))
    assert dyn[0, K.D_FRENZY] == 0 and dyn[0, K.D_OC + FURY] == 0 and cc[0, K.K_FURY_SPENT] == 1


def test_costless_talents_only_under_and_costless():
    """All or Nothing (L1800) costs no overcharge: not linked to Fury (A9ii-b, the default);
    under ``and_costless`` (A9ii-a) she takes 5 before rolling for +5 damage. Neither spends Fury."""
    nocap = {"boost": "never", "overcharge_cap": 99, "all_or_nothing": 5}
    inp, dyn, cc = frenzied([girl(talents=["All or Nothing"], policy=nocap)], [boss()])
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(1, 1, 4)), i=0)
    assert cc[0, K.K_SELF_DMG] == 0 and dyn[1, K.D_RES] == 40 - (1 + 2 + 4)
    inp, dyn, cc = frenzied([girl(talents=["All or Nothing"], policy=nocap)], [boss()],
                            rules={"fury_talents": "and_costless"})
    call(K.play_frenzied, inp, dyn, cc, Script(check=HIT, damage=faces(1, 1, 4)), i=0)
    assert cc[0, K.K_SELF_DMG] == 5 and dyn[0, K.D_RES] == 18 - 5 and dyn[0, K.D_TUSES] == 0  # 1/Scene
    assert dyn[1, K.D_RES] == 40 - (1 + 2 + 5 + 4) and dyn[0, K.D_OC + FURY] == 11


def test_shield_in_a_frenzy_only_when_fury_fills_her_defence():
    """Shield (L1613, 1 Defence overcharge a point, -5 damage each): the Shade's 4 + 2 = 6 on
    Akari. A frenzied Beni whose Defence is Heart's does not shield (not linked to Fury); one
    whose Defence is Fury's shields with 2 points, spent from her Fury (13 - 2), gaining none;
    under ``fury_talents: none`` she does not."""
    shade = mb41_member("Shade", attack=6)
    inp, dyn, cc = frenzied([girl(), girl("Beni", talents=["Shield"])], [shade], j=1)
    assert call(K.attack, inp, dyn, cc, Script(check=HIT, damage=faces(4)), i=2, t=0) == 6
    assert cc[1, K.K_TUSE] == 0 and dyn[1, K.D_OC + HEART] == 0 and dyn[1, K.D_OC + FURY] == 13
    beni = girl("Beni", talents=["Shield"], attack=None, defence=None, support=None, **FURY_DEFENDS)
    inp, dyn, cc = frenzied([girl(), beni], [shade], j=1)
    assert call(K.attack, inp, dyn, cc, Script(check=HIT, damage=faces(4)), i=2, t=0) == 0
    assert cc[1, K.K_TUSE] == 1 and dyn[1, K.D_TUSES] == 1 and cc[0, K.K_PREVENTED] == 6
    assert dyn[1, K.D_OC + FURY] == 11 and cc[1, K.K_FURY_SPENT] == 2 and cc[1, K.K_OC_GAIN + FURY] == 0
    inp, dyn, cc = frenzied([girl(), beni], [shade], j=1, rules={"fury_talents": "none"})
    assert call(K.attack, inp, dyn, cc, Script(check=HIT, damage=faces(4)), i=2, t=0) == 6
    assert cc[1, K.K_TUSE] == 0 and dyn[1, K.D_OC + FURY] == 13


def test_shield_points_are_bounded_by_the_fury_left():
    """Fury 1 left: one Shield point (-5), the frenzy ends with it."""
    shade = mb41_member("Shade", attack=6)
    beni = girl("Beni", talents=["Shield"], attack=None, defence=None, support=None, **FURY_DEFENDS)
    inp, dyn, cc = frenzied([girl(), beni], [shade], j=1)
    dyn[1, K.D_OC + FURY] = 1
    assert call(K.attack, inp, dyn, cc, Script(check=HIT, damage=faces(4)), i=2, t=0) == 1
    assert dyn[1, K.D_FRENZY] == 0 and dyn[1, K.D_OC + FURY] == 0


def test_frenzy_can_pay_reads_role_cost_and_fury_left():
    """The gate itself (:func:`kernel.frenzy_can_pay`) on Bonus Action (2 Support overcharge)
    when Fury fills her Support: 1 Fury left is not enough, 2 is; a Heart-role slot never."""
    me = girl(talents=["Bonus Action", "Heal"], attack=None, defence=None, support=None,
              **{"heart": 4, "fury": 3, "judgment": 4,
                 "roles": {"attack": "heart", "defence": "judgment", "support": "fury"}})
    inp, dyn, cc = frenzied([me], [boss()])
    s_bonus = next(s for s in range(K.MAXT) if inp.comb[0, K.C_TCODE + s] == K.E_BONUS_ACTION)

    def gate(s):
        return mb41_call(K.can_pay, i=0, s=s, comb=inp.comb, rules=inp.rules, dyn=dyn)

    dyn[0, K.D_OC + FURY] = 1
    assert not gate(s_bonus)
    dyn[0, K.D_OC + FURY] = 2
    assert gate(s_bonus)
    inp2, dyn2, _ = frenzied([girl(talents=["Heal"])], [boss()])   # Heal: Support = Judgment's
    assert not mb41_call(K.can_pay, i=0, s=0, comb=inp2.comb, rules=inp2.rules, dyn=dyn2)
    dyn2[0, K.D_FRENZY] = 0                                          # out of the frenzy: her cap decides
    assert mb41_call(K.can_pay, i=0, s=0, comb=inp2.comb, rules=inp2.rules, dyn=dyn2)


def test_a_miss_still_spends_on_the_talent():
    """Killing Blow is paid on a miss too (the special attack was made): 1 + 1 for movement."""
    inp, dyn, cc = frenzied([girl(talents=["Killing Blow"])], [boss(resolve=90)])
    dyn[1, K.D_RES] = 20
    call(K.play_frenzied, inp, dyn, cc, Script(check=MISS, damage=faces(2)), i=0)
    assert cc[0, K.K_TUSE] == 1 and dyn[0, K.D_OC + FURY] == 11 and cc[0, K.K_FURY_SPENT] == 2
