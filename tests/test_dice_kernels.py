"""The dice kernels the rule systems call, against exact laws.

:func:`sim.dice.exploding_d6` rolls pools of 1..3 dice from one draw of
four dice (``POOL_TABLE``) on random streams and die by die on scripted
ones: the table is checked exhaustively against the exact law, the kernel
by chi-square against icepool, and the scripted path by reading injected
faces in the book's order.
"""
from __future__ import annotations

from fractions import Fraction

import numba
import numpy as np
import pytest

from sim import dice, exact
from sim.rng import STATE_WORDS, scripted_state, seed_stream, stream_key

from test_exact import ALPHA, chisq_pvalue_joint


def table_law(n: int) -> dict:
    """Exact joint law of (total, sixes) the table path produces for ``n``d6!:
    each of the 6**4 digit strings, finished by the exact law of the dice still owed."""
    size = dice.POOL_TABLE.shape[1]
    law: dict = {}
    for u in range(size):
        v = int(dice.POOL_TABLE[n - 1, u])
        total, sixes, owed = v & 255, (v >> 8) & 255, v >> 16
        if owed == 0:
            law[(total, sixes)] = law.get((total, sixes), 0) + Fraction(1, size)
            continue
        for (t, s), p in exact.joint_fractions(owed, 6, True).items():
            key = (total + t, sixes + s)
            law[key] = law.get(key, 0) + p / size
    return law


@pytest.mark.parametrize("n", [1, 2, 3])
def test_pool_table_is_exact(n):
    """Every (total, sixes) with at most 12 sixes has exactly its Nd6! probability
    (the depth cut of the oracle only touches chains of 20+ sixes)."""
    want = exact.joint_fractions(n, 6, True)
    got = table_law(n)
    keys = {k for k in set(want) | set(got) if k[1] <= 12}
    assert keys
    for k in sorted(keys):
        assert got.get(k, 0) == want.get(k, 0), k


def test_pool_table_entries_by_hand():
    t = dice.POOL_TABLE
    # u = 0: digits 1,1,1,1 -> 2d6! uses two ones
    assert int(t[1, 0]) == 2
    # digits (lowest first) 6, 3, ... -> 1d6! = 6 + 3, one six, nothing owed
    u = 5 + 2 * 6
    assert int(t[0, u]) == 9 | 1 << 8
    # 6,6,6,6 -> 2d6! has 24 from four sixes and still owes 2 dice
    u = 6 ** 4 - 1
    assert int(t[1, u]) == 24 | 4 << 8 | 2 << 16


@numba.njit(cache=False)
def _sample(key, n, trials):
    st = np.zeros(STATE_WORDS, dtype=np.uint64)
    tot = np.empty(trials, dtype=np.int64)
    six = np.empty(trials, dtype=np.int64)
    for i in range(trials):
        seed_stream(st, key, i, 7)
        tot[i], six[i] = dice.exploding_d6(st, n)
    return tot, six


@numba.njit(cache=False)
def _scripted(st, n):
    return dice.exploding_d6(st, n)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_exploding_d6_kernel_chisquare(n):
    """The kernel's (total, sixes) against icepool's exact joint law, fixed seed."""
    t, s = _sample(stream_key(f"kernel-pool-{n}"), n, 200_000)
    assert chisq_pvalue_joint(exact.joint_total_maxima(n, 6, True), t, s) > ALPHA


def test_exploding_d6_kernel_rejects_a_wrong_law():
    """Power: the same samples against 2d6! with explosions cut after one die fail."""
    t, s = _sample(stream_key("kernel-pool-2"), 2, 200_000)
    assert chisq_pvalue_joint(exact.joint_total_maxima(2, 6, True, depth=1), t, s) < ALPHA


def test_scripted_pools_read_faces_in_book_order():
    st = scripted_state([f - 1 for f in (6, 6, 2, 3, 5)])
    assert _scripted(st, 2) == (17, 2)  # 6, 6, 2, 3: two sixes add two dice
    assert _scripted(st, 1) == (5, 0)
    st = scripted_state([f - 1 for f in (6, 6, 6, 6, 6, 1, 1)])
    assert _scripted(st, 2) == (32, 5)


def test_variant_stream_keys_warn_nothing_and_keep_their_values():
    """Independent streams (crn: false) use variant keys 1, 2, ...: the key is the uint64
    arithmetic of the documented mixing, computed without numpy's scalar overflow warning."""
    import warnings

    import numpy as np

    from sim import rng

    def reference(seed, v):
        with np.errstate(over="ignore"):
            g = np.uint64(0x9E3779B97F4A7C15)
            return np.uint64(int(rng.mix64(np.uint64(rng.hash_seed(seed)) ^ rng.mix64(np.uint64(v) * g))))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        keys = [rng.stream_key(21, v) for v in range(6)]
    assert keys[0] == np.uint64(rng.hash_seed(21))
    assert keys[1:] == [reference(21, v) for v in range(1, 6)]
    assert len(set(int(k) for k in keys)) == 6
