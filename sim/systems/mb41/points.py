"""The hook points: calling a timing point's hooks (:mod:`.hooks`) in order.

The fight reaches timing point ``T`` (its index ``T_<NAME>``, :mod:`.gates`)
through one of the loops here, by how its hooks combine:

* :func:`first`: the hooks in order until one returns nonzero; that return;
* :func:`every`: every open hook; 0;
* :func:`total`: every open hook; the sum of their returns;
* :func:`chain`: every open hook, each given ``c`` as the last left it; the last ``c``
  (:func:`chain_own` where ``b`` is not a combatant: GAIN's stat).

A loop reads the hook bits of ``a`` and ``b`` (``C_HOOKS + T``, ``C_HOOKS_B + T``:
the hooks whose masks open for them, set when the scenario was compiled,
:func:`.gates.hook_bits`), so a combatant without such a hook pays two loads
and a test; for each set bit ``k``, in order, the slot's armed state
(``rules[ARM_HOOKS + ROOM * T + k]``) and the call (``rules[PR_HOOKS + ROOM * T + k]``).
"""
from __future__ import annotations

from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import overload

from sim._jit import kernel, part

from .layout import ARM_HOOKS, C_HOOKS, C_HOOKS_B, HOOK_ROOM, PR_HOOKS
from .world import call, unpack


def lowest(x):
    """The index of the lowest set bit of ``x`` (> 0): numba's ``trailing_zeros`` compiled,
    plain Python uncompiled."""
    x = int(x)
    return (x & -x).bit_length() - 1


@overload(lowest, jit_options=dict(cache=True))
def _ov_lowest(x):
    def impl(x):
        return trailing_zeros(x)
    return impl


@kernel(forceinline=True)
def bits_of(T, a, b, comb):
    """The hooks of timing point ``T`` that may open for ``a`` and ``b`` (a bit per hook)."""
    return comb[a, C_HOOKS + T] | comb[b, C_HOOKS_B + T]


@kernel(forceinline=True)
def armed(code, a, b, dyn):
    """A slot's armed state (:func:`.gates.armed_code`) holds: none, or its column of ``a``'s
    (``b``'s) row differs from its unset value."""
    if code == 0:
        return True
    col = (code >> 2) - 1
    off = -(code & 1)
    if (code >> 1) & 1 == 0:
        return dyn[a, col] != off
    return dyn[b, col] != off


@kernel(forceinline=True)
def holds(T, a, b, w):
    """Some hook of timing point ``T`` may open for ``a`` (and ``b``): her talents reach it."""
    comb, rules, dyn, streams, bf = unpack(w)
    return bits_of(T, a, b, comb) != 0


@part
def first(T, a, b, c, w):
    """The open hooks of ``T``, in order, until one returns nonzero: that return, else 0."""
    comb, rules, dyn, streams, bf = unpack(w)
    bits = bits_of(T, a, b, comb)
    while bits != 0:
        k = lowest(bits)
        bits &= bits - 1
        if armed(rules[ARM_HOOKS + HOOK_ROOM * T + k], a, b, dyn):
            r = call(rules[PR_HOOKS + HOOK_ROOM * T + k], a, b, c, w)
            if r != 0:
                return r
    return 0


@part
def every(T, a, b, c, w):
    """Every open hook of ``T``, in order."""
    comb, rules, dyn, streams, bf = unpack(w)
    bits = bits_of(T, a, b, comb)
    while bits != 0:
        k = lowest(bits)
        bits &= bits - 1
        if armed(rules[ARM_HOOKS + HOOK_ROOM * T + k], a, b, dyn):
            call(rules[PR_HOOKS + HOOK_ROOM * T + k], a, b, c, w)
    return 0


@part
def total(T, a, b, c, w):
    """The sum of the open hooks' returns at ``T``."""
    comb, rules, dyn, streams, bf = unpack(w)
    out = 0
    bits = bits_of(T, a, b, comb)
    while bits != 0:
        k = lowest(bits)
        bits &= bits - 1
        if armed(rules[ARM_HOOKS + HOOK_ROOM * T + k], a, b, dyn):
            out += call(rules[PR_HOOKS + HOOK_ROOM * T + k], a, b, c, w)
    return out


@part
def chain(T, a, b, c, w):
    """``c`` through the open hooks of ``T``, each given what the last returned."""
    comb, rules, dyn, streams, bf = unpack(w)
    bits = bits_of(T, a, b, comb)
    while bits != 0:
        k = lowest(bits)
        bits &= bits - 1
        if armed(rules[ARM_HOOKS + HOOK_ROOM * T + k], a, b, dyn):
            c = call(rules[PR_HOOKS + HOOK_ROOM * T + k], a, b, c, w)
    return c


@part
def chain_own(T, a, b, c, w):
    """:func:`chain` at a point whose ``b`` is not a combatant (only ``a``'s bits, ``a``'s armed states)."""
    comb, rules, dyn, streams, bf = unpack(w)
    bits = comb[a, C_HOOKS + T]
    while bits != 0:
        k = lowest(bits)
        bits &= bits - 1
        if armed(rules[ARM_HOOKS + HOOK_ROOM * T + k], a, a, dyn):
            c = call(rules[PR_HOOKS + HOOK_ROOM * T + k], a, b, c, w)
    return c
