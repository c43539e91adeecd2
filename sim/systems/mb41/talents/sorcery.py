"""Sorcery in battle (L1169-1223, L1471), read as an ailment on the policy's target (A27iv).
"""
from __future__ import annotations

from sim._jit import kernel
from sim.dice import exploding_d6

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..ailments import give_ailment
from ..overcharge import check_bursts, gain_overcharge
from ..state import is_standing, roll_penalty
from ..targets import target_of


@kernel
def sorcery_target(i, w):
    """The policy's target when it lacks an ailment sorcery could give, else -1."""
    comb, rules, dyn, streams, bf = unpack(w)
    t = target_of(i, w)
    if t < 0:
        return -1
    if not is_standing(t, w):
        return -1
    if dyn[t, D_AIL] + dyn[t, D_AIL + 1] + dyn[t, D_AIL + 2] >= 3:
        return -1
    return t


@kernel
def cast_sorcery(i, mode, w):
    """Sorcery in battle (L1169-1223, L1471), read as an ailment on the
    policy's target (A27iv: "floorboards sprout and entangle an enemy").

    ``mode``: 0 Minor, 1 Major, 2 the whole turn (``sorcery_penalty``). The
    roll is 2d6! + Fury (hurting is Fury's intent, L1169; its sixes are Fury
    overcharge) - the mode's penalty + Battle Sorcery, against
    ``sorcery_window`` [low, mid, high]: at or below low it fails (exactly low:
    ``sorcery_low``); below mid a success with a side effect (+1 Fury
    overcharge); below high a clean success; from high a drawback (+1 Fury
    overcharge) and a benefit (a second ailment). The target does not resist
    (A27iii: the 4.1 text gives no roll). Returns True if she cast.
    """
    comb, rules, dyn, streams, bf = unpack(w)
    t = sorcery_target(i, w)
    if t < 0:
        return False
    fury = comb[i, C_ATT]
    if comb[i, C_RD] == 1:
        fury = comb[i, C_DEF]
    elif comb[i, C_RS] == 1:
        fury = comb[i, C_SUP]
    total, sixes = exploding_d6(streams[S_CHECK], 2)
    total += fury - roll_penalty(i, w) - rules[R_SORCERY_PENALTY + mode]
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_BATTLE_SORCERY:
            total += comb[i, C_TP1 + s]
            dyn[i, K_TUSE + s] += 1
    extra = 0
    low = rules[R_SORCERY_WINDOW]
    ok = total > low
    if total == low:
        ok = rules[R_SORCERY_LOW] != 0
        if rules[R_SORCERY_LOW] == 1:
            extra = 1
    elif total < rules[R_SORCERY_WINDOW + 1]:
        extra = 1
    elif total >= rules[R_SORCERY_WINDOW + 2]:
        extra = 1
    dyn[i, K_SPELLS] += 1
    if not ok:
        extra = 0
    gain_overcharge(i, 1, sixes + extra, w)
    if ok:
        dyn[i, K_SPELLS_OK] += 1
        n = 1
        if total >= rules[R_SORCERY_WINDOW + 2]:
            n = 2
        for k in range(3):
            a = (comb[i, P_INFLICT] + k) % 3
            if n > 0:
                if dyn[t, D_AIL + a] == 0:
                    give_ailment(t, a, w)
                    n -= 1
    check_bursts(i, w)
    return True


@kernel
def h_sorcery_turn(i, b, c, w):
    """Sorcery for the whole turn (policy ``sorcery: whole-turn``): her Minor is taken,
    the Major casts (:func:`h_sorcery_major`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, P_SORCERY] == SORCERY_TURN:
        if sorcery_target(i, w) >= 0:
            dyn[i, D_CASTING] = 1
            return 1
    return 0


@kernel
def h_sorcery_minor(i, b, c, w):
    """Sorcery as a Minor action (policy ``sorcery: minor``, :func:`cast_sorcery`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if comb[i, P_SORCERY] == SORCERY_MINOR:
        if cast_sorcery(i, 0, w):
            return 1
    return 0


@kernel
def h_sorcery_major(i, b, c, w):
    """Sorcery as her Major action: the whole turn's cast (:func:`h_sorcery_turn`), or
    a cast as a Major (``sorcery: major``, and a whole-turn caster without her Minor)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_CASTING] != 0:
        dyn[i, D_CASTING] = 0
        cast_sorcery(i, 2, w)
        return 1
    if comb[i, P_SORCERY] >= SORCERY_MAJOR:
        if cast_sorcery(i, 1, w):
            return 1
    return 0
