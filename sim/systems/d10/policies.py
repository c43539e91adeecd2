"""d10 AI policies: a preset name plus parameters, compiled to numbers.

A policy is a row of the kernel's ``pol`` array (columns ``P_*`` in
:mod:`.kernel`). A member's ``policy:`` names a preset (default
``balanced``) and overrides any parameter; the merged values are validated
by :class:`sim.systems.d10.schema.Policy`.

Parameters:
  * ``target``: ``weakest`` (fewest wounds left), ``random``, ``listed``
    (first in the file), ``strongest`` (largest attack pool);
  * ``defence``: ``best`` (largest allowed pool; ties prefer Parry, Magic
    Block, Dodge, Luck), ``dodge``, ``luck``, ``parry``, ``magic``
    (fall back to ``best`` when not allowed against that attack), or
    ``parry-melee`` (Parry against melee, else the best other pool);
  * ``mana_per_attack``: augmentation dice bought per attack (capped by the
    rule ``augment_cap`` and the mana left);
  * ``save_mana``: never augment below the cost of Killing Blow / Focused
    Assault (keep mana for them);
  * ``killing_blow`` / ``focused_assault`` / ``barrage``: use the power when
    the mana allows;
  * ``fortune``: ``never``, ``always`` (every test while points last),
    ``defence`` (every defence roll), ``rescue`` (any roll that the +2 turns
    from a failure into a success);
  * ``recharge``: when to spend the action on Recharge (L113, +3 mana, -2
    defence dice until her next turn): ``reasoned`` (the presets' default) only
    when her mana cannot pay for her attack (a mystic or specialization attack,
    after the cheaper form of a Dual Weapon), since +3 mana buys at most 3
    augmentation dice (about 1.5 successes) spread over later attacks while the
    turn gives up a whole attack now; ``threshold`` also whenever her mana is
    below ``recharge_below`` (the old default, ``recharge_below: 1``: every time
    she runs dry). Setting ``recharge_below`` without ``recharge`` selects
    ``threshold`` (older scenario files keep their meaning);
  * ``recharge_below``: the ``threshold`` level (0 = only when the attack
    cannot be paid);
  * ``retreat_at`` / ``hide_at`` / ``heal_at``: act when her own wound
    threshold (1 = second band ... 3 = fourth band) reaches this (0 = never);
    ``heal_at`` also heals an ally in that state (Healing Artifact);
  * ``aid``: Aid the ally with the largest attack pool instead of attacking;
  * ``pursue``: Pursue an enemy who just retreated;
  * ``targets``: targets per weapon attack (the first by ``target``, more in
    listed order; one roll, ``multi_target_penalty`` dice each);
  * ``stunt``: expected stunt dice per action (0..2; L115-145);
  * ``grapple``: Tentacles (L175): ``reasoned`` (the presets' default) grapples a
    target she does not hold when the grapple's chance to take is at least her
    attack's chance to hit (exact pool odds, :func:`.kernel.grapple_pays`), else
    attacks; ``grapple`` grapples every target she does not hold (the default
    before issue 35: the party-cake Gorgon rolled 4 Magic dice 9.16 times a
    fight beside 10.33 attacks with 8 melee dice); ``pin`` as ``grapple``, then
    pins a target she has grappled; ``never``. Setting it on a member without
    Tentacles is an error (it would do nothing);
  * ``recast_held``: ``false`` (every preset): her penalty spell (L79) is not
    aimed at an enemy a spell already holds at least as strongly (under rule
    ``recast`` a second spell could at most tighten that hold); when it holds
    every enemy she can target she Recharges if her mana is not full, else
    waits. ``true`` re-casts on whoever the targeting picks (before issue 35).
    Under rule ``recast: forbid`` the spell never goes to a held target, so
    ``true`` would do nothing and is an error, as it is on a member without a
    penalty specialization;
  * ``escape``: when held (a penalty spell, a grapple, a pin): ``reasoned``
    (the presets' default) pulls free only when the hold takes half of her
    attack dice or more and whoever holds her is out of the fight (else she
    would be held again), or when it leaves her no attack die; she needs a die
    for the Strength test; otherwise she attacks through the penalty (see
    :func:`.kernel.escape_pays`); ``always`` (or
    ``true``, the old default) spends every held turn pulling free; ``never``
    (or ``false``) always attacks through;
  * ``blood_magic``: pay a mana shortfall with wounds (Blood Magic);
  * ``hammerspace``: trap an enemy in Hammerspace when facing two or more;
  * ``duplicate``: create copies (Duplication) on the first turn.
"""
from __future__ import annotations

import numpy as np

from . import kernel as K

TARGETS = {"weakest": K.TARGET_WEAKEST, "random": K.TARGET_RANDOM, "listed": K.TARGET_LISTED,
           "strongest": K.TARGET_STRONGEST}
DEFENCES = {"best": K.DEF_BEST, "dodge": K.DEF_DODGE, "luck": K.DEF_LUCK, "parry": K.DEF_PARRY,
            "magic": K.DEF_BLOCK, "parry-melee": K.DEF_PARRY_MELEE}
FORTUNE = {"never": K.FORT_NEVER, "always": K.FORT_ALWAYS, "defence": K.FORT_DEFENCE, "rescue": K.FORT_RESCUE}
GRAPPLE = {"never": K.GRAPPLE_NEVER, "grapple": K.GRAPPLE_ALWAYS, "pin": K.GRAPPLE_PIN, "reasoned": K.GRAPPLE_REASONED}
ESCAPE = {"never": K.ESC_NEVER, "always": K.ESC_ALWAYS, "reasoned": K.ESC_REASONED}
RECHARGE = ("reasoned", "threshold")

_BASE = dict(target="weakest", defence="best", mana_per_attack=1, save_mana=True, killing_blow=True,
             focused_assault=True, barrage=True, fortune="rescue", recharge="reasoned", recharge_below=1,
             retreat_at=0, hide_at=0, heal_at=2, aid=False, pursue=True, targets=1, stunt=0.0, grapple="reasoned", escape="reasoned",
             blood_magic=True, hammerspace=True, duplicate=True, recast_held=False)

#: named presets; every parameter can be overridden per member
PRESETS = {
    # spends for effect: augments, uses powers, fortune when it flips a roll
    "balanced": dict(_BASE),
    # everything into the attack: full augmentation, fortune on every roll, never heals or retreats
    "aggressive": dict(_BASE, target="weakest", mana_per_attack=3, save_mana=False, fortune="always",
                       heal_at=0),
    # protects herself: Parry kept for melee, fortune on defence, heals, hides and retreats when hurt
    "cautious": dict(_BASE, defence="parry-melee", mana_per_attack=0, fortune="defence", heal_at=1, hide_at=3,
                     retreat_at=3, killing_blow=False),
    # helps the strongest ally: Aid every turn, heals, fortune on defence
    "support": dict(_BASE, aid=True, mana_per_attack=0, fortune="defence", heal_at=1),
    # plain: no mana, no fortune, no powers; the exact-duel baseline
    "plain": dict(_BASE, mana_per_attack=0, save_mana=False, killing_blow=False, focused_assault=False,
                  barrage=False, fortune="never", recharge_below=0, heal_at=0, pursue=False, grapple="never",
                  blood_magic=False, hammerspace=False, duplicate=False),
}


def encode(policy) -> np.ndarray:
    """A validated policy model (see schema.Policy) -> int64[NP] parameter vector."""
    row = np.zeros(K.NP, dtype=np.int64)
    row[K.P_TARGET] = TARGETS[policy.target]
    row[K.P_DEFENCE] = DEFENCES[policy.defence]
    row[K.P_AUG] = policy.mana_per_attack
    row[K.P_SAVE] = int(policy.save_mana)
    row[K.P_KB] = int(policy.killing_blow)
    row[K.P_FA] = int(policy.focused_assault)
    row[K.P_BARRAGE] = int(policy.barrage)
    row[K.P_FORTUNE] = FORTUNE[policy.fortune]
    row[K.P_RECHARGE] = policy.recharge_below if policy.recharge == "threshold" else 0
    row[K.P_RETREAT] = policy.retreat_at
    row[K.P_HIDE] = policy.hide_at
    row[K.P_HEAL] = policy.heal_at
    row[K.P_AID] = int(policy.aid)
    row[K.P_PURSUE] = int(policy.pursue)
    row[K.P_TARGETS] = policy.targets
    row[K.P_STUNT] = int(round(policy.stunt * 1000))
    row[K.P_GRAPPLE] = GRAPPLE[policy.grapple]
    row[K.P_ESCAPE] = ESCAPE[policy.escape]
    row[K.P_BLOOD] = int(policy.blood_magic)
    row[K.P_HAMMER] = int(policy.hammerspace)
    row[K.P_DUP] = int(policy.duplicate)
    row[K.P_RECAST_HELD] = int(policy.recast_held)
    return row
