"""The reference duel in plain Python: the baseline of ``sim bench``.

This is the duel of ``scenarios/duel-basic.yaml`` written the way a
competent Python programmer would write it without numba: plain functions,
the standard library's :class:`random.Random` (``randrange(6) + 1`` per
die), no numpy, no tricks. It plays exactly the rules the numba kernel
(:mod:`sim.systems.mb41.kernel`) plays for that scenario:

* initiative ``listed``: the first fighter acts first in every round;
* an attack is 2d6! + Attack against 2d6! + Defence (every six adds a die);
  the higher total hits, then more sixes, then the higher stat, and a full
  tie goes to the defender (seed 000 L1453, A20, A21);
* a hit deals 1d6 + 2 (melee), +2 per attacker six, -2 per defender six,
  floored at 0 (L1453, A22); overflow below 0 Resolve is ignored;
* no Boost (policy ``never``), no revive: the first fighter to drop to 0
  Resolve loses;
* a fight still running after 30 rounds is a draw.

Other dice streams than the kernel's, so the results agree in law, not
trial by trial (``tests/test_bench.py`` checks the win rates agree).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

WIN, LOSS, DRAW = 0, 1, 2

ROUND_CAP = 30
SIX_DAMAGE = 2
MIN_DAMAGE = 0


@dataclass(frozen=True)
class Fighter:
    name: str
    attack: int
    defence: int
    resolve: int
    damage_bonus: int  # melee 2, ranged 0


#: the two fighters of scenarios/duel-basic.yaml
AKARI = Fighter("Akari", attack=4, defence=4, resolve=18, damage_bonus=2)
SHADE = Fighter("Shade", attack=3, defence=3, resolve=18, damage_bonus=2)


def roll_exploding(rng: random.Random, n: int) -> tuple[int, int]:
    """``n``d6!: returns (total, sixes); every six adds another die."""
    total = 0
    sixes = 0
    while n > 0:
        r = rng.randrange(6) + 1
        total += r
        if r == 6:
            sixes += 1
        else:
            n -= 1
    return total, sixes


def attacker_wins(a_total, a_sixes, a_stat, d_total, d_sixes, d_stat) -> bool:
    """The 4.1 contest: higher total, then more sixes, then higher stat; else the defender."""
    if a_total != d_total:
        return a_total > d_total
    if a_sixes != d_sixes:
        return a_sixes > d_sixes
    return a_stat > d_stat


def attack(rng: random.Random, attacker: Fighter, defender: Fighter) -> int:
    """One basic attack; returns the damage dealt (0 on a miss)."""
    a_total, a_sixes = roll_exploding(rng, 2)
    d_total, d_sixes = roll_exploding(rng, 2)
    a_total += attacker.attack
    d_total += defender.defence
    if not attacker_wins(a_total, a_sixes, attacker.attack, d_total, d_sixes, defender.defence):
        return 0
    damage = rng.randrange(6) + 1 + attacker.damage_bonus + SIX_DAMAGE * (a_sixes - d_sixes)
    return max(damage, MIN_DAMAGE)


def duel(rng: random.Random, first: Fighter, second: Fighter, round_cap: int = ROUND_CAP) -> int:
    """One fight; WIN if ``first`` wins, LOSS if ``second`` wins, DRAW at the round cap."""
    resolve = [first.resolve, second.resolve]
    fighters = (first, second)
    for _ in range(round_cap):
        for me in (0, 1):
            other = 1 - me
            resolve[other] -= attack(rng, fighters[me], fighters[other])
            if resolve[other] <= 0:
                return WIN if me == 0 else LOSS
    return DRAW


def run_duels(n: int, seed: int = 0, first: Fighter = AKARI, second: Fighter = SHADE) -> list[int]:
    """Play ``n`` duels; returns ``[wins, losses, draws]`` of ``first``."""
    rng = random.Random(seed)
    counts = [0, 0, 0]
    for _ in range(n):
        counts[duel(rng, first, second)] += 1
    return counts
