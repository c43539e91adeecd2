"""Magical Burst 4.1 AI policies: a name plus parameters, compiled to numbers.

A policy is a row of the kernel's ``pol`` array (columns ``P_*`` in
:mod:`.kernel`): targeting rule, boost mode, boost margin, overcharge cap and
whether downed girls are finished off. Presets are starting points; every
parameter can be overridden per combatant in YAML.

Targeting (``name``):
  * ``focus-weakest`` -- attack the enemy with the lowest current Resolve;
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
``inflict``: with Inflict, the ailment tried first (stun, bound or bleed;
then the next one the target lacks).
Ailments are always removed when possible (a removal roll with the Minor
action, or with the only action when Stunned).
"""
from __future__ import annotations

import re

import numpy as np

from . import kernel as K

TARGETS = {"focus-weakest": K.TARGET_WEAKEST, "random-target": K.TARGET_RANDOM}
BOOSTS = {"never": K.BOOST_NEVER, "always": K.BOOST_ALWAYS, "when-losing": K.BOOST_LOSING}

#: named presets: parameters a policy starts from
PRESETS = {
    "focus-weakest": dict(name="focus-weakest", boost="when-losing", boost_margin=4,
                          overcharge_cap=None, finish_downed=False),
    "random-target": dict(name="random-target", boost="when-losing", boost_margin=4,
                          overcharge_cap=None, finish_downed=False),
}

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
    return row
