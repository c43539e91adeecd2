"""The d10 duel in plain Python: the baseline of ``sim bench`` (d10 keys).

The duel of ``scenarios/d10/duel.yaml`` written the way a competent Python
programmer would write it without numba: plain functions, the standard
library's :class:`random.Random` (``getrandbits`` per die), a lookup list
for the faces, no numpy. It plays exactly the rules the kernel plays for
that scenario (listed initiative, melee attacks, Dodge, DR 1, threshold
penalties, wounds max(1, 1 + margin - DR), out at a full pool, round cap 30).
Other dice than the kernel's: results agree in law, not trial by trial.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

WIN, LOSS, DRAW = 0, 1, 2
ROUND_CAP = 30
#: successes per face 0..9 (faces 1..10): 7-9 one, 10 two
FACE = (0, 0, 0, 0, 0, 0, 1, 1, 1, 2)


@dataclass(frozen=True)
class Fighter:
    attack: int            # attack dice
    defence: int           # defence dice
    wmax: int              # wound pool
    thresholds: tuple      # first wound counts with -1, -2, -3 dice
    dr: int


MOLLY = Fighter(attack=4, defence=4, wmax=12, thresholds=(4, 7, 10), dr=1)
FLOOZY = Fighter(attack=4, defence=4, wmax=12, thresholds=(4, 7, 10), dr=1)


def successes(rng: random.Random, n: int) -> int:
    s = 0
    for _ in range(n):
        s += FACE[rng.randrange(10)]
    return s


def penalty(f: Fighter, wounds: int) -> int:
    t1, t2, t3 = f.thresholds
    return (wounds >= t1) + (wounds >= t2) + (wounds >= t3)


def duel(rng: random.Random, a: Fighter, b: Fighter, round_cap: int = ROUND_CAP) -> int:
    fighters = (a, b)
    wounds = [0, 0]
    for _ in range(round_cap):
        for me in (0, 1):
            other = 1 - me
            x, y = fighters[me], fighters[other]
            att = successes(rng, max(0, x.attack - penalty(x, wounds[me])))
            dfn = successes(rng, max(0, y.defence - penalty(y, wounds[other])))
            if att >= dfn:
                wounds[other] += max(1, 1 + att - dfn - y.dr)
                if wounds[other] >= y.wmax:
                    return WIN if me == 0 else LOSS
    return DRAW


def run_duels(n: int, seed: int = 0, a: Fighter = MOLLY, b: Fighter = FLOOZY) -> list[int]:
    rng = random.Random(seed)
    counts = [0, 0, 0]
    for _ in range(n):
        counts[duel(rng, a, b)] += 1
    return counts
