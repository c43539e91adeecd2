"""d10 powers and perks: their slots, the hooks that play them, and each timing
point's dispatcher (seed 003 line numbers; audit ids D..).

A combatant's powers and perks with a fight effect sit in her power slots, one
per mechanic (:mod:`.layout`: ``C_PNUM``, ``C_PMASK``; a mechanic's numbers in
:data:`.codes.MECHANICS`). :data:`.hooks.HOOKS` registers each hook ``h_<name>``
below at a timing point; the timing's dispatcher ``<timing>_hooks`` opens its
gate (``C_PMASK`` against ``<TIMING>_GATE``) and calls its hooks in the table's
order; a hook acts only when her slots hold its mechanic (:func:`has_power`) and
reads its numbers from its slot (:func:`power_num`).
"""
from __future__ import annotations

from sim._jit import kernel, part

from .codes import *  # noqa: F401,F403 - the named values (E_*, T_*, ATK_*...)
from .defence import (attack_ability, count_enemies, defence_ability, defence_choice, defend, fortune_action,
                      fortune_defence, in_fight)
from .hooks import (ACTION_GATE, AFTER_ATTACK_GATE, AID_GATE, AREA_GATE, DECLARE_GATE, FORM_GATE, HEAL_GATE,
                    HIDE_GATE, INITIATIVE_GATE, MANA_GATE, SUMMON_GATE, TARGETED_GATE, TARGETS_GATE, TURN_START_GATE)
from .layout import *  # noqa: F401,F403 - the declared columns (C_, P_, D_, K_, R_...)
from .pools import (block_mana_magic, chance, gain_mana, next_threshold, pay_mana, pool_size, roll_pool, test_roll,
                    wound_band)
from .wounds import hold

# ---------------------------------------------------------------- slots


@kernel(inline="always")
def has_power(comb, i, code):
    """Her slots hold mechanic ``code`` (``C_PMASK``)."""
    return (comb[i, C_PMASK] >> code) & 1 != 0


@kernel(inline="always")
def power_num(comb, i, code, k):
    """Number ``k`` of her mechanic ``code`` (:data:`.codes.MECHANICS` params, in order),
    from its slot; 0 when she does not have it."""
    return comb[i, C_PNUM + k * MAXP + code - 1]


# ---------------------------------------------------------------- MANA


@kernel(inline="always")
def h_blood_magic(comb, pol, dyn, i):
    """Blood Magic (L197): a shortfall paid in wounds, as many as keep her out of her
    next threshold (policy ``blood_magic``)."""
    if not has_power(comb, i, E_BLOOD_MAGIC):
        return 0
    if pol[i, P_BLOOD] == 0:
        return 0
    room = next_threshold(comb, dyn, i) - 1 - dyn[i, D_W]
    return room if room > 0 else 0


@kernel(inline="always")
def mana_hooks(comb, pol, dyn, i):
    """MANA: mana she may spend beyond her pool: Blood Magic."""
    m = 0
    if comb[i, C_PMASK] & MANA_GATE != 0:
        m += h_blood_magic(comb, pol, dyn, i)
    return m


@kernel(inline="always")
def mana_available(comb, pol, dyn, i):
    """Mana she can spend now: her pool, plus what the MANA hooks add."""
    return dyn[i, D_MANA] + mana_hooks(comb, pol, dyn, i)


# ---------------------------------------------------------------- FORM


@kernel(inline="always")
def _form_margin(comb, pol, rules, dyn, i, t, kind):
    """Attack dice of ``i`` in form ``kind`` minus the dice of the defence
    ``t`` would roll against it (each die is worth 0.5 successes on average)."""
    ab = attack_ability(kind)
    dt = defence_choice(comb, pol, rules, dyn, t, kind)
    na = pool_size(comb, rules, dyn, i, ab, kind, 0, 0)
    nd = pool_size(comb, rules, dyn, t, defence_ability(dt), dt, 0, dyn[t, D_DEFPEN])
    return na - nd


@kernel
def h_dual_weapon(comb, pol, rules, dyn, i, t, kind, cost, second):
    """Dual Weapon (L181): switching form is a non-action, so she attacks in the form
    whose attack pool beats ``t``'s defence pool against it by the most; ties keep
    ``attack_kind``. A form she cannot pay for (mana) is taken only if neither can be
    paid (the attack then fails either way)."""
    if not has_power(comb, i, E_DUAL_WEAPON):
        return kind, cost, second
    k2 = power_num(comb, i, E_DUAL_WEAPON, 0) - 1
    c2 = power_num(comb, i, E_DUAL_WEAPON, 1)
    avail = mana_available(comb, pol, dyn, i)
    ok1 = avail >= cost
    ok2 = avail >= c2
    if ok1 != ok2:
        better = ok2
    else:
        better = _form_margin(comb, pol, rules, dyn, i, t, k2) > _form_margin(comb, pol, rules, dyn, i, t, kind)
    if better:
        return k2, c2, True
    return kind, cost, second


@kernel(inline="always")
def form_hooks(comb, pol, rules, dyn, i, t, kind, cost, second):
    """FORM: the form of her attack on ``t`` (``kind`` at ``cost``): Dual Weapon."""
    if comb[i, C_PMASK] & FORM_GATE != 0:
        kind, cost, second = h_dual_weapon(comb, pol, rules, dyn, i, t, kind, cost, second)
    return kind, cost, second


@kernel
def attack_form(comb, pol, rules, dyn, i, t):
    """The attack form ``i`` uses on ``t``: (kind, mana cost, second form?): her attack,
    as the FORM hooks change it."""
    return form_hooks(comb, pol, rules, dyn, i, t, comb[i, C_ATK], comb[i, C_ATK_COST], False)


# ---------------------------------------------------------------- DECLARE, TARGETS, TARGETED, AREA, AFTER_ATTACK


@kernel(inline="always")
def h_killing_blow(comb, pol, i, avail, cost, kb, fa):
    """Killing Blow (L151, D19): for its mana on top of the attack's, a hit fills the
    target's wound pool (policy ``killing_blow``)."""
    if has_power(comb, i, E_KILLING_BLOW):
        if pol[i, P_KB] != 0:
            c = power_num(comb, i, E_KILLING_BLOW, 0)
            if avail >= cost + c:
                return True, fa, cost + c
    return kb, fa, cost


@kernel(inline="always")
def h_focused_assault(comb, pol, i, avail, cost, kb, fa):
    """Focused Assault (L163, D21), unless a Killing Blow is declared: for its mana, a
    hit drops the target into her next threshold (rule ``focused_assault``)."""
    if not kb:
        if has_power(comb, i, E_FOCUSED_ASSAULT):
            if pol[i, P_FA] != 0:
                c = power_num(comb, i, E_FOCUSED_ASSAULT, 0)
                if avail >= cost + c:
                    return kb, True, cost + c
    return kb, fa, cost


@kernel(inline="always")
def declare_hooks(comb, pol, i, avail, cost):
    """DECLARE: the attacker's powers before the roll of a damaging attack, as the policy
    asks and the mana allows: Killing Blow, else Focused Assault. Returns (kb, fa, cost)."""
    kb = False
    fa = False
    if comb[i, C_PMASK] & DECLARE_GATE != 0:
        kb, fa, cost = h_killing_blow(comb, pol, i, avail, cost, kb, fa)
        kb, fa, cost = h_focused_assault(comb, pol, i, avail, cost, kb, fa)
    return kb, fa, cost


@kernel(inline="always")
def h_barrage(comb, pol, cc, i, kind, effect, avail, cost, bar):
    """Barrage (seed 002 L507-511): a damaging attack with her Magic Weapon (any form,
    ``C_MAGIC_WEAPON``) or her Specialization takes no multi-target penalty dice for its
    mana (policy ``barrage``)."""
    if has_power(comb, i, E_BARRAGE):
        if not effect:
            magic = comb[i, C_MAGIC_WEAPON] != 0
            if kind == ATK_SPEC:
                magic = True
            if magic:
                if pol[i, P_BARRAGE] != 0:
                    c = power_num(comb, i, E_BARRAGE, 0)
                    if avail >= cost + c:
                        cc[i, K_BARRAGE] += 1
                        return True, cost + c
    return bar, cost


@kernel(inline="always")
def targets_hooks(comb, pol, cc, i, kind, effect, avail, cost):
    """TARGETS: an attack on several targets (L81): Barrage. Returns (no penalty dice?, cost)."""
    bar = False
    if comb[i, C_PMASK] & TARGETS_GATE != 0:
        bar, cost = h_barrage(comb, pol, cc, i, kind, effect, avail, cost, bar)
    return bar, cost


@kernel(inline="always")
def h_third_eye(comb, t, pen):
    """Third Eye (L171): offensive specialization uses aimed at her take its penalty dice."""
    if has_power(comb, t, E_THIRD_EYE):
        pen += power_num(comb, t, E_THIRD_EYE, 0)
    return pen


@kernel(inline="always")
def targeted_hooks(comb, t):
    """TARGETED: dice off a specialization use aimed at ``t`` directly: Third Eye."""
    pen = 0
    if comb[t, C_PMASK] & TARGETED_GATE != 0:
        pen = h_third_eye(comb, t, pen)
    return pen


@kernel(inline="always")
def h_friendship_area(comb, i, allies):
    """Power of Friendship (L167): her area uses catch no ally (no friendly fire)."""
    if has_power(comb, i, E_FRIENDSHIP):
        return 0
    return allies


@kernel(inline="always")
def area_hooks(comb, i, allies):
    """AREA: the allies ``i``'s area use catches (``allies`` by her specialization, L81)."""
    if comb[i, C_PMASK] & AREA_GATE != 0:
        allies = h_friendship_area(comb, i, allies)
    return allies


@kernel(inline="always")
def h_killing_blow_after(comb, dyn, i, kb, hits):
    """Killing Blow (L151): after it, her defence loses its dice until her next turn,
    times its multiplier when it missed."""
    if kb:
        if has_power(comb, i, E_KILLING_BLOW):
            p = power_num(comb, i, E_KILLING_BLOW, 1)
            if hits == 0:
                p *= power_num(comb, i, E_KILLING_BLOW, 2)
            dyn[i, D_DEFPEN] = p


@kernel(inline="always")
def after_attack_hooks(comb, dyn, i, kb, hits):
    """AFTER_ATTACK: after ``i``'s attack (``hits`` targets hit): Killing Blow's penalty."""
    if comb[i, C_PMASK] & AFTER_ATTACK_GATE != 0:
        h_killing_blow_after(comb, dyn, i, kb, hits)


# ---------------------------------------------------------------- TURN_START, HEAL, SUMMON


@kernel(inline="always")
def h_regeneration(comb, rules, dyn, cc, i):
    """Regeneration (L173): a wound and a mana point back at the start of her turn."""
    if has_power(comb, i, E_REGENERATION):
        w = power_num(comb, i, E_REGENERATION, 0)
        m = power_num(comb, i, E_REGENERATION, 1)
        if w + m > 0:
            h = w
            if h > dyn[i, D_W]:
                h = dyn[i, D_W]
            dyn[i, D_W] -= h
            cc[i, K_HEALED] += h
            gain_mana(comb, rules, dyn, i, m)


@kernel(inline="always")
def turn_start_hooks(comb, rules, dyn, cc, i):
    """TURN_START: the start of her turn: Regeneration."""
    if comb[i, C_PMASK] & TURN_START_GATE != 0:
        h_regeneration(comb, rules, dyn, cc, i)


@kernel(inline="always")
def h_regeneration_action(comb, pol, rules, dyn, cc, i):
    """Regeneration's action (L173, D24): its mana heals a band of her wounds, at her
    ``heal_at`` band. Returns 1 if she healed."""
    if has_power(comb, i, E_REGENERATION):
        rc = power_num(comb, i, E_REGENERATION, 2)
        if rc > 0:
            if wound_band(comb, dyn, i) >= pol[i, P_HEAL]:
                if dyn[i, D_MANA] >= rc:
                    pay_mana(comb, dyn, cc, i, rc)
                    h = comb[i, C_BAND]
                    if h > dyn[i, D_W]:
                        h = dyn[i, D_W]
                    dyn[i, D_W] -= h
                    cc[i, K_HEALED] += h
                    return 1
    return 0


@kernel(inline="always")
def h_healing_artifact(comb, pol, rules, dyn, cc, i):
    """Healing Artifact (L201): its mana heals its wounds of the most wounded ally (or
    herself) at ``heal_at``. Returns 1 if she healed."""
    if not has_power(comb, i, E_HEALING_ARTIFACT):
        return 0
    hc = power_num(comb, i, E_HEALING_ARTIFACT, 0)
    amt = power_num(comb, i, E_HEALING_ARTIFACT, 1)
    if amt > 0:
        if dyn[i, D_MANA] >= hc:
            lvl = pol[i, P_HEAL]
            best = -1
            bv = 0
            for j in range(comb.shape[0]):
                if comb[j, C_SIDE] != comb[i, C_SIDE]:
                    continue
                if not in_fight(dyn, j):
                    continue
                if wound_band(comb, dyn, j) < lvl:
                    continue
                if dyn[j, D_W] > bv:
                    bv = dyn[j, D_W]
                    best = j
            if best >= 0:
                pay_mana(comb, dyn, cc, i, hc)
                h = amt
                if h > dyn[best, D_W]:
                    h = dyn[best, D_W]
                dyn[best, D_W] -= h
                cc[i, K_HEALED] += h
                return 1
    return 0


@kernel
def heal_hooks(comb, pol, rules, dyn, cc, i):
    """HEAL: her healing action, the first hook that heals: Regeneration's on herself,
    else a Healing Artifact on an ally. Returns 1 if she healed."""
    if comb[i, C_PMASK] & HEAL_GATE == 0:
        return 0
    if h_regeneration_action(comb, pol, rules, dyn, cc, i) != 0:
        return 1
    return h_healing_artifact(comb, pol, rules, dyn, cc, i)


@kernel
def duplicate(comb, dyn, cc, i):
    """Duplication (L169): its mana per copy; copies act from the next round."""
    c0 = comb[i, C_COPY0]
    cost = power_num(comb, i, E_DUPLICATION, 0)
    made = 0
    for k in range(comb[i, C_NCOPIES]):
        if dyn[i, D_MANA] < cost:
            break
        c = c0 + k
        if dyn[c, D_ACTIVE] != 0:
            if dyn[c, D_OUT] == OUT_IN:
                continue
        pay_mana(comb, dyn, cc, i, cost)
        dyn[c, D_ACTIVE] = 1
        dyn[c, D_OUT] = OUT_IN
        dyn[c, D_W] = 0
        dyn[c, D_MANA] = comb[c, C_MANA]
        dyn[c, D_READY] = 0
        made += 1
    cc[i, K_COPIES] += made
    dyn[i, D_COPIES_MADE] = 1
    return made


@kernel(inline="always")
def h_duplication(comb, pol, dyn, cc, i):
    """Duplication (L169): her copies on her first turn of a fight (policy ``duplicate``),
    if her mana pays for one. Returns 1 if she made them."""
    if has_power(comb, i, E_DUPLICATION):
        if pol[i, P_DUP] != 0:
            if dyn[i, D_COPIES_MADE] == 0:
                if dyn[i, D_MANA] >= power_num(comb, i, E_DUPLICATION, 0):
                    duplicate(comb, dyn, cc, i)
                    return 1
    return 0


@kernel(inline="always")
def summon_hooks(comb, pol, dyn, cc, i):
    """SUMMON: her copies (Duplication). Returns 1 if she used her action so."""
    if comb[i, C_PMASK] & SUMMON_GATE == 0:
        return 0
    return h_duplication(comb, pol, dyn, cc, i)


# ---------------------------------------------------------------- ACTION


@kernel
def hammerspace(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """Hammerspace (L153): store a living enemy; Magic test vs its defence (+2 dice);
    she escapes with a Magic test at TN ceil(Magic / 2) (her action)."""
    chk = streams[S_CHECK]
    a = test_roll(comb, rules, tab, dyn, chk, i, MAG, T_SPEC, bonus, 0)
    d, dt = defend(comb, pol, rules, tab, dyn, chk, cc, t, ATK_MYSTIC, power_num(comb, i, E_HAMMERSPACE, 0))
    a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
    d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
    if a >= d:
        dyn[t, D_STORED] = (comb[i, C_SCORE + MAG] + 1) // 2
        if dyn[t, D_STORED] < 1:
            dyn[t, D_STORED] = 1
        cc[i, K_TRAPS] += 1
    else:
        block_mana_magic(comb, rules, dyn, cc, t, dt)


@part
def h_hammerspace(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """Hammerspace (L153): trap ``t`` when she faces two or more (policy ``hammerspace``).
    Returns 1 if she used her action so."""
    if has_power(comb, i, E_HAMMERSPACE):
        if pol[i, P_HAMMER] != 0:
            if count_enemies(comb, dyn, comb[i, C_SIDE]) >= 2:
                hammerspace(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus)
                return 1
    return 0


@kernel
def grapple_pays(comb, pol, rules, dyn, i, t, bonus):
    """Policy ``grapple: reasoned``: is grappling ``t`` worth this action? Yes when the
    grapple's chance to take (her larger Magic or Luck pool against ``t``'s defence
    against a use of Magic, L175) is at least her attack's chance to hit (her pool in
    the form she would use against ``t``'s defence against it, L85; 0 if she cannot
    pay for it), both exact (:func:`.pools.chance`); augmentation, stunts, extra targets
    and Fortune are left out of both. A Gorgon with 8 melee dice and 4 Magic dice attacks.
    The caller asks only for a target nobody holds: on a held one a grapple would add no
    penalty (:func:`.wounds.hold` keeps the larger) and only take her next action again,
    round after round (the old ``grapple`` policy does that to a target another holds)."""
    nm = pool_size(comb, rules, dyn, i, MAG, T_GRAPPLE, bonus, 0)
    nl = pool_size(comb, rules, dyn, i, LCK, T_GRAPPLE, bonus, 0)
    dg = defence_choice(comb, pol, rules, dyn, t, ATK_MYSTIC)
    pg = chance(rules, nm if nm >= nl else nl,
                pool_size(comb, rules, dyn, t, defence_ability(dg), dg, 0, dyn[t, D_DEFPEN]))
    kind, cost, second = attack_form(comb, pol, rules, dyn, i, t)
    if mana_available(comb, pol, dyn, i) < cost:
        return True
    da = defence_choice(comb, pol, rules, dyn, t, kind)
    pa = chance(rules, pool_size(comb, rules, dyn, i, attack_ability(kind), kind, bonus, 0),
                pool_size(comb, rules, dyn, t, defence_ability(da), da, 0, dyn[t, D_DEFPEN]))
    return pg >= pa


@part
def grapple(comb, pol, rules, tab, dyn, streams, cc, i, t, pin, bonus):
    """Tentacles (L175, D25): Magic or Luck test (the larger) vs the target's
    defence; a grapple costs her next action and its dice, a pin more."""
    cc[i, K_GRAPPLES] += 1
    nm = pool_size(comb, rules, dyn, i, MAG, T_GRAPPLE, bonus, 0)
    nl = pool_size(comb, rules, dyn, i, LCK, T_GRAPPLE, bonus, 0)
    chk = streams[S_CHECK]
    a = roll_pool(chk, nm if nm >= nl else nl, tab, rules)
    d, dt = defend(comb, pol, rules, tab, dyn, chk, cc, t, ATK_MYSTIC, 0)
    a = fortune_action(pol, rules, dyn, cc, i, a, d, False)
    d = fortune_defence(comb, pol, rules, dyn, cc, t, d, a, True)
    if a < d:
        block_mana_magic(comb, rules, dyn, cc, t, dt)
        return
    if pin:
        dyn[t, D_HELD] = power_num(comb, i, E_TENTACLES, 1)
        dyn[t, D_HELD_KIND] = HELD_PIN
        dyn[t, D_HELD_TN] = a
        dyn[t, D_HELD_BY] = i
    else:
        hold(dyn, t, power_num(comb, i, E_TENTACLES, 0), a, HELD_GRAPPLE, i)
        dyn[t, D_DISABLED] = 1


@part
def h_tentacles(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """Tentacles (L175): grapple ``t`` (policy ``grapple``: always a target she does not
    hold; ``pin`` also pins one she has grappled; ``reasoned`` only a target nobody
    holds, when :func:`grapple_pays`). Returns 1 if she used her action so."""
    if not has_power(comb, i, E_TENTACLES):
        return 0
    g = pol[i, P_GRAPPLE]
    if g <= 0:
        return 0
    go = dyn[t, D_HELD_BY] != i
    pin = False
    if not go:
        if g == GRAPPLE_PIN:
            if dyn[t, D_HELD_KIND] == HELD_GRAPPLE:
                go = True
                pin = True
    elif g == GRAPPLE_REASONED:
        go = False  # a held target: a grapple would only disable her again (the hold keeps the larger)
        if dyn[t, D_HELD_KIND] == HELD_NONE:
            go = grapple_pays(comb, pol, rules, dyn, i, t, bonus)
    if go:
        grapple(comb, pol, rules, tab, dyn, streams, cc, i, t, pin, bonus)
        return 1
    return 0


@part
def action_hooks(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
    """ACTION: a power used as her action on her target ``t`` instead of attacking, the
    first that acts: Hammerspace, Tentacles. Returns 1 if one acted."""
    if comb[i, C_PMASK] & ACTION_GATE == 0:
        return 0
    if h_hammerspace(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus) != 0:
        return 1
    return h_tentacles(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus)


# ---------------------------------------------------------------- HIDE, AID, INITIATIVE


@kernel(inline="always")
def h_disguise_artifact(comb, dyn, cc, i, dice):
    """Disguise Artifact (L195): its dice on a Hide test, for its mana."""
    if has_power(comb, i, E_DISGUISE_ARTIFACT):
        c = power_num(comb, i, E_DISGUISE_ARTIFACT, 0)
        b = power_num(comb, i, E_DISGUISE_ARTIFACT, 1)
        if b > 0:
            if dyn[i, D_MANA] >= c:
                pay_mana(comb, dyn, cc, i, c)
                dice += b
    return dice


@kernel(inline="always")
def hide_hooks(comb, dyn, cc, i):
    """HIDE: dice her powers add to a Hide test (L103): a Disguise Artifact."""
    dice = 0
    if comb[i, C_PMASK] & HIDE_GATE != 0:
        dice = h_disguise_artifact(comb, dyn, cc, i, dice)
    return dice


@kernel(inline="always")
def h_friendship(comb, i, j, g):
    """Power of Friendship (L167): her Aid gives its multiple of the dice; an ally who
    has it gets its extra die from any Aid."""
    if has_power(comb, i, E_FRIENDSHIP):
        g *= power_num(comb, i, E_FRIENDSHIP, 0)
    if has_power(comb, j, E_FRIENDSHIP):
        g += power_num(comb, j, E_FRIENDSHIP, 1)
    return g


@kernel(inline="always")
def h_perfect_assistant(comb, i, j, g):
    """A familiar with Perfect Assistant (L161) gives its owner its extra dice."""
    if has_power(comb, i, E_PERFECT_ASSISTANT):
        if comb[i, C_OWNER] == j:
            g += power_num(comb, i, E_PERFECT_ASSISTANT, 0)
    return g


@kernel(inline="always")
def aid_hooks(comb, i, j, g):
    """AID: the dice ``i``'s Aid gives ``j`` (``g`` by the rules, L105): Power of
    Friendship, Perfect Assistant."""
    if (comb[i, C_PMASK] | comb[j, C_PMASK]) & AID_GATE != 0:
        g = h_friendship(comb, i, j, g)
        g = h_perfect_assistant(comb, i, j, g)
    return g


@kernel(inline="always")
def h_awareness(comb, i, n, r):
    """Awareness (L205): every initiative die counts as a 10 (two successes)."""
    if has_power(comb, i, E_INITIATIVE_TENS):
        return 2 * n
    return r


@kernel(inline="always")
def initiative_hooks(comb, i, n):
    """INITIATIVE: her initiative successes from her ``n`` dice without a roll, or -1
    (roll them): Awareness."""
    r = -1
    if comb[i, C_PMASK] & INITIATIVE_GATE != 0:
        r = h_awareness(comb, i, n, r)
    return r
