"""Keyed random streams that numba kernels can use.

Every unit of work draws from its own stream, keyed by
``(hashed master seed, variant key, trial index, purpose)``. A stream is a
xoshiro256** generator whose four state words are seeded through
splitmix64 from the key, plus a one-word buffer that holds the unused upper
half of the last 64-bit output (dice only need 32 bits).

Consequences (tests/test_runner.py, tests/test_trials.py and the scripted tests hold them):

* the same seed gives bit-identical results for any thread count, worker
  count or chunk size, because a trial's dice depend only on its key;
* runs are prefix-stable: trial ``i`` draws the same numbers whether the run
  has 1,000 or 1,000,000 trials;
* nearby master seeds share nothing, because the master seed is hashed
  before use (``seed XOR index`` schemes would make seeds 1 and 2 share
  combats).

A stream state is a ``uint64`` array of length :data:`STATE_WORDS`. Kernels
take it as an argument and mutate it in place; nothing here is global.

Injected dice (for scripted rule tests): :func:`scripted_state` builds a
state whose word 6 is a flag and whose words 8.. hold a script of results;
:func:`randbelow` then returns the scripted values in order instead of
random ones (flagging a script that runs out or a value out of range, see
:func:`check_script`),
so any kernel can be driven with exact dice without changing its signature.
"""
from __future__ import annotations

import hashlib

import numpy as np

from ._jit import kernel

#: s0..s3 of xoshiro256**, spare 32-bit half, "spare is valid" flag,
#: script flag, script cursor (scripted states append the script after these;
#: a random stream counts its 64-bit outputs there instead)
STATE_WORDS = 8

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@kernel
def mix64(z):
    """The splitmix64 finaliser: a bijective 64-bit mixing function."""
    z = np.uint64(z)
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@kernel(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def seed_stream(state, key, trial, purpose):
    """Seed ``state`` (uint64[STATE_WORDS]) for stream ``(key, trial, purpose)``.

    ``key`` is the hashed master seed combined with the variant key (see
    :func:`stream_key`); ``trial`` is the global trial index (int64 >= 0);
    ``purpose`` a small integer naming what the stream is for.
    """
    seed_stream_inline(state, key, trial, purpose)


@kernel(inline="always")
def seed_stream_inline(state, key, trial, purpose):
    """:func:`seed_stream`, inlined into its caller: with a constant
    ``purpose`` its hash folds away, and seeding several streams of one
    trial computes the trial's hash once. Same values as :func:`seed_stream`.
    """
    h = mix64(np.uint64(key) ^ mix64(np.uint64(trial) + _GOLDEN))
    h = mix64(h ^ mix64(np.uint64(purpose) * _GOLDEN + _M1))
    x = h
    for i in range(4):
        x = x + _GOLDEN
        state[i] = mix64(x)
    # xoshiro must not start from the all-zero state (probability 2^-256).
    if state[0] == _ZERO and state[1] == _ZERO and state[2] == _ZERO and state[3] == _ZERO:
        state[0] = _ONE
    state[4] = _ZERO
    state[5] = _ZERO
    state[6] = _ZERO
    state[7] = _ZERO


@kernel(inline="always")
def _next_u64_inline(state):
    """One xoshiro256** output; word 7 counts the outputs of a random stream
    (``sim bench`` reads it for the share of time spent drawing)."""
    state[7] += _ONE
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@kernel(inline="always")
def _next_u32_inline(state):
    if state[5] != _ZERO:
        state[5] = _ZERO
        return state[4]
    x = _next_u64_inline(state)
    state[4] = x >> _U32
    state[5] = _ONE
    return x & _LOW32


@kernel
def next_u64(state):
    """One xoshiro256** output (uint64)."""
    return _next_u64_inline(state)


@kernel
def next_u32(state):
    """32 uniform bits (as uint64), using both halves of each 64-bit output."""
    return _next_u32_inline(state)


@kernel
def _scripted(state, n):
    """Next scripted value. Never raises (a raise in the hot path costs ~15x):
    a script that runs out sets flag 2, a value out of range flag 3, and
    :func:`check_script` turns those into errors in the (Python) test."""
    pos = np.int64(state[7])
    if 8 + pos >= state.shape[0]:
        state[6] = np.uint64(2)
        return np.int64(0)
    v = np.int64(state[8 + pos])
    state[7] = np.uint64(pos + 1)
    if v >= n:
        state[6] = np.uint64(3)
        return np.int64(0)
    return v


@kernel(inline="always")
def randbelow_inline(state, n):
    """:func:`randbelow`, inlined at numba IR level into its caller.

    The dice kernels use this (two call sites), so a die costs no function
    call; everything else calls :func:`randbelow` (inlining it everywhere
    multiplies compile time for no further gain).
    """
    if state[6] != _ZERO:
        return _scripted(state, n)
    un = np.uint64(n)
    m = _next_u32_inline(state) * un
    low = m & _LOW32
    if low < un:
        threshold = (_LOW32 + _ONE - un) % un  # 2**32 mod n
        while low < threshold:
            m = _next_u32_inline(state) * un
            low = m & _LOW32
    return np.int64(m >> _U32)


@kernel
def randbelow(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, exactly unbiased.

    Lemire's multiply-and-reject method on 32-bit draws: the rejection zone
    ``2**32 mod n`` makes every outcome equally likely. (A called function;
    the dice kernels inline :func:`randbelow_inline`, the same code.)
    """
    return randbelow_inline(state, n)


@kernel
def d6(state):
    """One fair six-sided die, 1..6."""
    return randbelow(state, 6) + 1


@kernel
def die(state, sides):
    """One fair die with ``sides`` faces, 1..sides."""
    return randbelow(state, sides) + 1


@kernel
def uniform01(state):
    """A float64 in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def hash_seed(seed) -> int:
    """Hash a master seed (int or str) to a 64-bit key.

    Uses BLAKE2b so that any integer (including ones above 2**64) or string
    maps to a well-mixed 64-bit value; seeds 1 and 2 share no structure.
    """
    if isinstance(seed, (np.integer, bool)):
        seed = int(seed)  # np.int64(1) and 1 are the same seed (repr differs)
    if not isinstance(seed, (int, str)):
        raise TypeError(f"a seed is an int or a str, got {type(seed).__name__}")
    data = repr(("mgsim-seed-v1", seed)).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def stream_key(seed, variant_key: int = 0) -> np.uint64:
    """The 64-bit key of all streams of one variant of a run.

    Under common random numbers (the default) every variant uses
    ``variant_key=0``, so trial ``i`` of variant A and trial ``i`` of
    variant B draw from the same streams for the same purposes.
    """
    k = hash_seed(seed)
    if variant_key:
        # the product modulo 2^64 in Python integers: the same value as the uint64
        # product, without numpy's overflow warning on scalars
        v = np.uint64((int(variant_key) * int(_GOLDEN)) & 0xFFFFFFFFFFFFFFFF)
        k = int(mix64(np.uint64(k) ^ mix64(v)))
    return np.uint64(k)


def scripted_state(values, width: int | None = None) -> np.ndarray:
    """A stream that replays ``values`` as the results of :func:`randbelow`.

    ``values`` are 0-based draws (a d6 showing 4 is 3); use
    :func:`dice_script` to write die faces instead. ``width`` pads the array
    (for stacking several scripted streams in one 2-D array).
    """
    values = [int(v) for v in values]
    n = max(width or 0, 8 + len(values))
    st = np.zeros(n, dtype=np.uint64)
    st[6] = 1
    st[8:8 + len(values)] = values
    return st


def dice_script(faces) -> list[int]:
    """Die faces (1-based) to the 0-based draws :func:`scripted_state` wants."""
    return [int(f) - 1 for f in faces]


def check_script(state, consumed_all: bool = True) -> None:
    """Raise AssertionError if a scripted stream ran out, got a value out of
    range, or (with ``consumed_all``) left values unused."""
    flag = int(state[6])
    if flag == 2:
        raise AssertionError("scripted dice ran out: the rule drew more dice than scripted")
    if flag == 3:
        raise AssertionError("a scripted value was out of range for its draw")
    if consumed_all and 8 + int(state[7]) < state.shape[0]:
        raise AssertionError(f"only {int(state[7])} of {state.shape[0] - 8} scripted values were used")


def script_used(state) -> int:
    """How many scripted values a stream has consumed."""
    return int(state[7])


def new_state() -> np.ndarray:
    """An unseeded stream state array (seed it with :func:`seed_stream`)."""
    return np.zeros(STATE_WORDS, dtype=np.uint64)
