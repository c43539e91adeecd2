"""The world every 4.1 / draft procedure takes, and how one is called.

A procedure (:mod:`sim.procs`) is compiled on its own and called through its
address in the rule table (``rules[PR_*]``, filled by :mod:`.registry`): the
turn, the attack, the geometry's moves, a talent's hook. Each takes

    (a, b, c, comb, rules, dyn, streams, bf)

three int64 arguments (who acts, on whom, a slot or an amount: each slot's
meaning in :mod:`.layout`) and the arrays of the fight: the static table, the
rule table, the state and counters, the random streams, the battlefield
(:mod:`.field`; a field without cells when there is no grid). It returns an
int64 (a damage, a target, 0/1 for "done").
"""
from __future__ import annotations

import numpy as np
from numba import types

from sim import procs
from sim._jit import jit, kernel
from sim.procs import call  # noqa: F401 - re-exported: ``call(rules[PR_X], a, b, c, comb, rules, dyn, streams, bf)``

from .layout import BF_META, M_NCELL, M_SIZE, NBF, R_GRID, R_POSITIONS

_I = types.int64
_A2 = types.Array(types.int64, 2, "C")
#: the argument types of every procedure: a, b, c, comb, rules, dyn, streams, bf
WORLD = procs.signature(_I, _I, _I, _A2, types.Array(types.int64, 1, "C"), _A2,
                        types.Array(types.uint64, 2, "C"), _A2)


@kernel
def on_grid(bf):
    """The fight is on the hex grid (the battlefield has cells)."""
    return bf[BF_META, M_NCELL] > 0


@kernel
def on_positions(rules):
    """The fight is on the draft's line of positions (rule ``positions`` > 0)."""
    return rules[R_POSITIONS] > 0


@kernel
def gridless(rules):
    """Neither a hex grid nor positions: theatre of the mind."""
    if rules[R_GRID] != 0:
        return False
    return rules[R_POSITIONS] == 0


@jit
def no_field():
    """The battlefield array of a fight without a grid (no cells; :func:`on_grid` is False)."""
    bf = np.zeros((NBF, M_SIZE), dtype=np.int64)
    return bf
