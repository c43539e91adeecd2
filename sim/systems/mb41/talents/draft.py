"""The draft's own talents (seed 001): Hex, Empower and Rouse, Regeneration.
"""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403 - effect codes, ailments, policy values
from ..layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_, PR_...)
from ..world import unpack
from ..damage import _heal, apply_damage
from ..slots import can_pay, find_usable, pay_slot, within
from ..state import other_ally
from ..talents.team import try_amplify
from ..targets import range_target


@kernel
def try_hex(i, w):
    """The draft's Hex (DRAFT L251-255; Minor, no cost): a Hex on the
    policy's target (on positions within 0-2, :func:`range_target`), which takes P1 damage at the start of every round until
    the end of the scene (not an attack; Hexes stack); one Hex a round."""
    comb, rules, dyn, streams, bf = unpack(w)
    s = find_usable(i, E_HEX, w)
    if s < 0:
        return False
    if dyn[i, D_HEX_ROUND] == dyn[0, D_ROUND]:
        return False
    t = range_target(i, s, w)  # positions: within 0-2
    if t < 0:
        return False
    pay_slot(i, s, w)
    dyn[t, D_HEXES] += comb[i, C_TP1 + s]
    if dyn[t, D_AMP_HEX_BY] == i + 1:  # her Amplify Magic on t (DRAFT L267): her Hexes deal D_AMP_HEX times
        extra = comb[i, C_TP1 + s] * (dyn[t, D_AMP_HEX] - 1)
        dyn[t, D_HEXES] += extra
        dyn[t, D_HEX_EXTRA] += extra
    dyn[i, D_HEX_ROUND] = dyn[0, D_ROUND]
    return True


@kernel
def mood_for(j, w):
    """The status (1 Excited, 2 Calm) Empower or Rouse gives ``j`` (``mood_status``)."""
    comb, rules, dyn, streams, bf = unpack(w)
    m = rules[R_MOOD_STATUS]
    if m == 0:
        return 1
    if m == 1:
        return 2
    return 1 if comb[j, C_ATT] >= comb[j, C_DEF] else 2


@kernel
def try_mood(i, to_self, w):
    """The draft's Empower (DRAFT L17-21; 1/Scene, herself, ``to_self``) and
    Rouse (L235-239; Minor, 1/Scene, an ally within 0-2, gridless any):
    Excited or Calm (:func:`mood_for`) on one who has neither; Rouse picks
    the first listed standing ally without one (on positions within its
    ``range_positions``, :func:`within`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] != E_MOOD:
            continue
        if (comb[i, C_TP1 + s] != 0) != to_self:
            continue
        if dyn[i, D_TUSES + s] == 0 or not can_pay(i, s, w):
            continue
        j = -1
        if to_self:
            if dyn[i, D_MOOD] == 0:
                j = i
        else:
            for k in range(comb.shape[0]):
                if other_ally(i, k, w):
                    if dyn[k, D_MOOD] == 0:
                        if within(i, k, s, w):  # positions: 0-2 (range_positions)
                            j = k
                            break
        if j < 0:
            continue
        pay_slot(i, s, w)
        dyn[j, D_MOOD] = mood_for(j, w)
        return True
    return False


@kernel
def try_regeneration(i, w):
    """The draft's Regeneration (DRAFT L137-141; free, 1/Episode): once she has
    lost Resolve, she turns it on: P1 Resolve at the start of every round for
    the rest of the scene, never above her Base Resolve (:func:`..fight.round_effects`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[i, D_REGEN] != 0 or dyn[i, D_RES] >= comb[i, C_RES]:
        return
    s = find_usable(i, E_REGEN, w)
    if s < 0:
        return
    pay_slot(i, s, w)
    dyn[i, D_REGEN] = comb[i, C_TP1 + s]


@kernel
def h_regenerate(j, b, c, w):
    """ROUND_EFFECTS: Regeneration's Resolve at the start of a round (standing only: at 0 she
    is a non-magical human)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_DEAD] == 0:
        if dyn[j, D_RES] > 0:
            _heal(j, j, dyn[j, D_REGEN], w)
    return 0


@kernel
def h_hexes(j, b, c, w):
    """ROUND_EFFECTS: her Hexes' damage at the start of a round (DRAFT L255: not an attack; it
    may drop her, or wound her at 0); 1 (damage was dealt)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if dyn[j, D_DEAD] != 0:
        return 0
    took = apply_damage(j, dyn[j, D_HEXES], w)
    dyn[j, K_HEX_DMG] += took
    return 1


@kernel
def h_empower(i, b, c, w):
    """TURN_START: the draft's Empower on herself (:func:`try_mood`)."""
    try_mood(i, True, w)
    return 0


@kernel
def h_regeneration(i, b, c, w):
    """TURN_START: the draft's Regeneration turned on once she has lost Resolve
    (:func:`try_regeneration`)."""
    try_regeneration(i, w)
    return 0


@kernel
def h_hex(i, b, c, w):
    """The draft's Hex (:func:`try_hex`), its Amplify Magic first (:func:`try_amplify`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    if (comb[i, C_TMASK] >> E_AMPLIFY) & 1 != 0:
        if try_amplify(i, w):
            return 1
    return 1 if try_hex(i, w) else 0


@kernel
def h_rouse(i, b, c, w):
    """The draft's Rouse on an ally (:func:`try_mood`)."""
    comb, rules, dyn, streams, bf = unpack(w)
    return 1 if try_mood(i, False, w) else 0
