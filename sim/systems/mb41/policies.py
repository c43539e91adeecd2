"""Magical Burst 4.1 AI policies: a name plus parameters, compiled to numbers.

A policy is a row of the kernel's ``pol`` array (columns ``P_*`` in
:mod:`.kernel`): targeting rule, boost mode, boost margin, overcharge cap and
whether downed girls are finished off. Presets are starting points; every
parameter can be overridden per combatant in YAML.

Targeting (``name``):
  * ``focus-weakest`` -- attack the enemy with the lowest current Resolve;
  * ``strongest-threat`` -- attack the enemy with the highest Attack stat
    (ties: the lowest Resolve, then the first listed);
  * ``random-target`` -- attack a uniformly random enemy.
Boost (``boost``):
  * ``never``;
  * ``always`` -- one boost die on every attack and defence roll while uses last;
  * ``when-losing`` -- after seeing the roll, boost while losing the contest by
    at most ``boost_margin`` (written ``when-losing-by 3`` for short).
``overcharge_cap``: never take optional overcharge (a boost's +1) that would
put the stat's counter above this, counting the sixes already on the roll;
unset, it is one below the ruleset's ``burst_at`` (12 for a burst at 13).
``finish_downed``: also attack enemies at 0 Resolve, who then take wounds
and can die (RULINGS: a policy parameter; lethality studies report both).
``passive_defence``: defend with Defence + 4 instead of rolling, where the
rules allow it (the draft, DRAFT L486).
``heal_below``: with Heal, heal the standing ally (or herself) lowest in
Resolve once she is below this percent of her maximum (default 50).
``inflict``: with Inflict or Curse, the ailment tried first (stun, bound or
bleed; then the next one the target lacks).
``heal_below`` also decides Drain Life (used on a hit while she is below it).
``shield_above``: with Shield or Bulwark, protect a hit of at least this much
damage (default 5), spending as many points as cover it.
``scream_min``: with Deafening Scream or Blood Rain, use it instead of an
attack when at least this many enemies (or all that are left) lack its
ailment (default 2).
``all_or_nothing``: with All or Nothing, the damage she takes before an
attack to add to it (default 6, at most 12; only while it leaves her standing).
Life Bomb is placed below ``heal_below``; Implode targets an enemy with a
higher Attack than hers.
Killing Blow and Binding/Debilitating Attack are used whenever they apply;
Want it Hard, Want it Now re-rolls the first miss it can pay for.
Ailments are always removed when possible (a removal roll with the Minor
action, or with the only action when Stunned).

Presets (``preset:``, or ``policy: NAME`` for short) fill every field the
member does not set herself; :data:`PRESETS` lists them with what they are
for. Girls: ``balanced`` (the defaults), ``aggressive``, ``careful``,
``support-first``; monsters: ``brutal``, ``cinematic``, ``threat-first``,
``opportunist``. Any member may use any preset (Boost and Heal only matter
for girls who have them).
"""
from __future__ import annotations

import re

import numpy as np

from . import kernel as K

TARGETS = {"focus-weakest": K.TARGET_WEAKEST, "random-target": K.TARGET_RANDOM,
           "strongest-threat": K.TARGET_STRONGEST}
BOOSTS = {"never": K.BOOST_NEVER, "always": K.BOOST_ALWAYS, "when-losing": K.BOOST_LOSING}

#: named presets: the fields a policy starts from (a member's own fields win),
#: with ``for`` (who they are written for) and ``doc`` (one line, shown in the README)
PRESETS = {
    # girls
    "balanced": dict(name="focus-weakest", boost="when-losing", boost_margin=4, overcharge_cap=None,
                     finish_downed=False, heal_below=50,
                     **{"for": "girls", "doc": "the defaults: focus the weakest, boost a close contest, "
                                               "never into a burst, heal below half"}),
    "aggressive": dict(name="focus-weakest", boost="always", boost_margin=4, overcharge_cap=None,
                       finish_downed=False, heal_below=30,
                       **{"for": "girls", "doc": "boost every roll while uses last (still never into a burst), "
                                                 "heal only below 30%"}),
    "careful": dict(name="focus-weakest", boost="when-losing", boost_margin=2, overcharge_cap=8,
                    finish_downed=False, heal_below=60,
                    **{"for": "girls", "doc": "boost only a contest lost by 2 or less, stop taking optional "
                                              "overcharge at 8, heal below 60%"}),
    "support-first": dict(name="focus-weakest", boost="when-losing", boost_margin=3, overcharge_cap=None,
                          finish_downed=False, heal_below=75,
                          **{"for": "girls", "doc": "heal anyone below 75% before attacking"}),
    # monsters
    "brutal": dict(name="focus-weakest", boost="never", boost_margin=4, overcharge_cap=None,
                   finish_downed=True, heal_below=50,
                   **{"for": "monsters", "doc": "focus the weakest and keep hitting downed girls (wounds, death)"}),
    "cinematic": dict(name="random-target", boost="never", boost_margin=4, overcharge_cap=None,
                      finish_downed=False, heal_below=50,
                      **{"for": "monsters", "doc": "spread attacks at random, leave downed girls alone"}),
    "threat-first": dict(name="strongest-threat", boost="never", boost_margin=4, overcharge_cap=None,
                         finish_downed=False, heal_below=50,
                         **{"for": "monsters", "doc": "attack the girl with the highest Attack"}),
    "opportunist": dict(name="focus-weakest", boost="never", boost_margin=4, overcharge_cap=None,
                        finish_downed=False, heal_below=50,
                        **{"for": "monsters", "doc": "focus the weakest standing girl, leave downed girls alone"}),
}


def preset_fields(name: str) -> dict:
    """The policy fields of preset ``name`` (without ``for``/``doc``)."""
    return {k: v for k, v in PRESETS[name].items() if k not in ("for", "doc")}

_LOSING_BY = re.compile(r"^when-losing-by\s*(?:<=|≤)?\s*(\d+)$")


def parse_boost(value: str) -> tuple[str, int | None]:
    """``'when-losing-by 3'`` -> ``('when-losing', 3)``; plain modes pass through."""
    v = value.strip()
    m = _LOSING_BY.match(v)
    if m:
        return "when-losing", int(m.group(1))
    return v, None


def encode(policy, burst_at: int = 13) -> np.ndarray:
    """A validated policy model (see schema.Policy) -> int64[NP] parameter vector.

    An unset ``overcharge_cap`` becomes ``burst_at - 1``.
    """
    row = np.zeros(K.NP, dtype=np.int64)
    row[K.P_TARGET] = TARGETS[policy.name]
    row[K.P_BOOST] = BOOSTS[policy.boost]
    row[K.P_MARGIN] = policy.boost_margin
    row[K.P_OCCAP] = burst_at - 1 if policy.overcharge_cap is None else policy.overcharge_cap
    row[K.P_FINISH] = int(policy.finish_downed)
    row[K.P_PASSIVE] = int(policy.passive_defence)
    row[K.P_HEAL_BELOW] = policy.heal_below
    row[K.P_INFLICT] = {"stun": K.A_STUN, "bound": K.A_BOUND, "bleed": K.A_BLEED}[policy.inflict]
    row[K.P_SHIELD_ABOVE] = policy.shield_above
    row[K.P_SCREAM_MIN] = policy.scream_min
    row[K.P_ALL_IN] = policy.all_or_nothing
    return row
