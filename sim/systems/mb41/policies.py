"""Magical Burst 4.1 AI policies: a name plus parameters, compiled to numbers.

A policy is the ``P_*`` columns of a combatant's row of ``comb`` (:mod:`.layout`): targeting rule, boost mode, boost margin, overcharge cap and
whether downed girls are finished off. Presets are starting points; every
parameter can be overridden per combatant in YAML.

Targeting (``name``):
  * ``focus-weakest`` -- attack the enemy with the lowest current Resolve;
  * ``strongest-threat`` -- attack the enemy with the highest Attack stat
    (ties: the lowest Resolve, then the first listed);
  * ``random-target`` -- attack a uniformly random enemy;
  * ``nearest`` -- attack the enemy fewest hexes away (ties: the lowest
    Resolve, then the first listed; gridless: as ``focus-weakest``).
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
attack when at least this many enemies in its area lack its ailment (default
3: the audit of issue 36 measured a monster screaming at two girls losing 19-23
points of win rate against attacking them, at three about even).
``area_min``: with Blast Strike, Burst Attack or Gravity Wave, use it instead
of a basic attack when it reaches at least this many enemies (default 2).
``all_or_nothing``: with All or Nothing, the damage she takes before an
attack to add to it (default 6, at most 12; only while it leaves her standing).
Life Bomb is placed below ``heal_below``; Implode targets an enemy with a
higher Attack than hers.
Killing Blow and Binding/Debilitating Attack are used whenever they apply;
Want it Hard, Want it Now re-rolls the first miss it can pay for.
On the hex grid (``grid: hex``, see :mod:`.hex`):
``movement``: ``auto`` (the default: ``close-in`` for a melee ``attack_kind``,
``keep-range`` for a ranged one), ``close-in`` (move next to the target),
``keep-range`` (move to 2-3 hexes of it), ``hold`` (never move),
``protect-ally`` (stay next to the standing ally lowest in Resolve share);
she attacks whatever her range allows, the policy's target first.
``intercept``: ``never`` (default), ``always``, or ``protect-below N`` (take
an adjacent ally's hit when it would leave that ally below N percent of her
maximum Resolve, or knock her out; a downed ally always) (L1469).
``sorcery`` (girls): cast battle sorcery -- an ailment on the policy's
target (the first it lacks in the ``inflict`` order; rule options
``sorcery_window``, ``sorcery_penalty``, ``sorcery_low``) -- as a ``minor``
action (-4), a ``major`` action instead of attacking (-2) or with the
``whole-turn`` (no penalty); ``never`` (the default).

``reckless``: leave rough terrain or an enemy-adjacent hex by Reckless
Movement (a Minor action and a 2d6! + Support roll, L1416) instead of
Disengage (a Major) or a double move.
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

from . import codes as E
from . import layout as L

TARGETS = {"focus-weakest": E.TARGET_WEAKEST, "random-target": E.TARGET_RANDOM,
           "strongest-threat": E.TARGET_STRONGEST, "nearest": E.TARGET_NEAREST}
#: movement modes on the grid; ``auto`` is resolved by the compiler from ``attack_kind``
MOVES = {"auto": -1, "close-in": E.MOVE_CLOSE, "keep-range": E.MOVE_KEEP, "hold": E.MOVE_HOLD,
         "protect-ally": E.MOVE_PROTECT}
INTERCEPT_ALWAYS = 1000
BOOSTS = {"never": E.BOOST_NEVER, "always": E.BOOST_ALWAYS, "when-losing": E.BOOST_LOSING}
SORCERY = {"never": E.SORCERY_NEVER, "minor": E.SORCERY_MINOR, "major": E.SORCERY_MAJOR,
           "whole-turn": E.SORCERY_TURN}

#: named presets: the fields a policy starts from (a member's own fields win),
#: with ``for`` (who they are written for) and ``doc`` (one line, shown in the README)
PRESETS = {
    # girls
    "balanced": dict(name="focus-weakest", boost="when-losing", boost_margin=4, overcharge_cap=None,
                     finish_downed=False, heal_below=50,
                     **{"for": "girls", "doc": "the defaults: focus the weakest, boost a close contest, "
                                               "never into a burst, heal below half"}),
    "aggressive": dict(name="focus-weakest", boost="always", boost_margin=4, overcharge_cap=None,
                       finish_downed=False, heal_below=30, reckless=True,
                       **{"for": "girls", "doc": "boost every roll while uses last (still never into a burst), "
                                                 "heal only below 30%; on a grid, Reckless Movement out of "
                                                 "rough or engaged hexes"}),
    "careful": dict(name="focus-weakest", boost="when-losing", boost_margin=2, overcharge_cap=8,
                    finish_downed=False, heal_below=60,
                    **{"for": "girls", "doc": "boost only a contest lost by 2 or less, stop taking optional "
                                              "overcharge at 8, heal below 60%"}),
    "support-first": dict(name="focus-weakest", boost="when-losing", boost_margin=3, overcharge_cap=None,
                          finish_downed=False, heal_below=75,
                          **{"for": "girls", "doc": "heal anyone below 75% before attacking"}),
    "guardian": dict(name="nearest", boost="when-losing", boost_margin=4, overcharge_cap=None,
                     finish_downed=False, heal_below=50, movement="protect-ally", intercept="protect-below 50",
                     **{"for": "girls", "doc": "on a grid: stay next to the most hurt ally and take the hits that "
                                               "would leave her below half (Intercept); attack the nearest enemy"}),
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

_PROTECT = re.compile(r"^protect[-_ ]below\s*[: ]?\s*(\d+)\s*%?$")


def parse_intercept(value: str) -> int:
    """``never`` -> -1, ``always`` -> 1000, ``protect-below 50`` (or ``protect_below:50``) -> 50."""
    v = str(value).strip()
    if v == "never":
        return -1
    if v == "always":
        return INTERCEPT_ALWAYS
    m = _PROTECT.match(v)
    if m and 0 <= int(m.group(1)) <= 100:
        return int(m.group(1))
    raise ValueError(f"intercept {value!r}: use never, always or protect-below N (N a percent, 0-100)")


_LOSING_BY = re.compile(r"^when-losing-by\s*(?:<=|≤)?\s*(\d+)$")


def parse_boost(value: str) -> tuple[str, int | None]:
    """``'when-losing-by 3'`` -> ``('when-losing', 3)``; plain modes pass through."""
    v = value.strip()
    m = _LOSING_BY.match(v)
    if m:
        return "when-losing", int(m.group(1))
    return v, None


def encode(policy, burst_at: int = 13, attack_kind: str = "melee", row: np.ndarray | None = None) -> np.ndarray:
    """A validated policy model (see schema.Policy) -> its parameters (``P_*``) in
    ``row``, a combatant's row of the static table (int64[NC]; a new one if ``None``).

    An unset ``overcharge_cap`` becomes ``burst_at - 1``; ``movement: auto``
    becomes close-in for a melee ``attack_kind``, keep-range for a ranged one.
    """
    if row is None:
        row = np.zeros(L.NC, dtype=np.int64)
    row[L.P_TARGET] = TARGETS[policy.name]
    row[L.P_BOOST] = BOOSTS[policy.boost]
    row[L.P_MARGIN] = policy.boost_margin
    row[L.P_OCCAP] = burst_at - 1 if policy.overcharge_cap is None else policy.overcharge_cap
    row[L.P_FINISH] = int(policy.finish_downed)
    row[L.P_PASSIVE] = int(policy.passive_defence)
    row[L.P_HEAL_BELOW] = policy.heal_below
    row[L.P_INFLICT] = {"stun": E.A_STUN, "bound": E.A_BOUND, "bleed": E.A_BLEED}[policy.inflict]
    row[L.P_SHIELD_ABOVE] = policy.shield_above
    row[L.P_SCREAM_MIN] = policy.scream_min
    row[L.P_AREA_MIN] = policy.area_min
    row[L.P_ALL_IN] = policy.all_or_nothing
    move = MOVES[policy.movement]
    if move < 0:
        move = E.MOVE_KEEP if attack_kind == "ranged" else E.MOVE_CLOSE
    row[L.P_MOVE] = move
    row[L.P_INTERCEPT] = parse_intercept(policy.intercept)
    row[L.P_RECKLESS] = int(policy.reckless)
    row[L.P_SORCERY] = SORCERY[policy.sorcery]
    return row
