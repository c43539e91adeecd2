"""The inline gates in front of the talent dispatchers must let through every
talent the dispatcher looks at.

``kernel.minor_talent`` / ``kernel.major_talent`` call ``minor_talent_try`` /
``major_talent_try`` only when the combatant's ``C_TMASK`` meets ``MINOR_MASK`` /
``MAJOR_MASK`` (a call passes every state array, so it is skipped when nothing
could apply). A talent added to a dispatcher without its bit in the mask would
silently never play: this test reads each dispatcher's source and checks that
every effect code it tests (``>> E_X) & 1`` or ``has_code(i, E_X, ...)``) is
covered by the mask (codes from 64 through ``E_MORE``). Pure Python: no kernel
is compiled.
"""
from __future__ import annotations

import inspect
import re

import pytest

from sim.systems.mb41 import kernel as K


def _codes(fn) -> set[str]:
    src = inspect.getsource(getattr(fn, "py_func", fn))
    return set(re.findall(r">> (E_[A-Z_]+)\) & 1", src)) | set(re.findall(r"has_code\(i, (E_[A-Z_]+),", src))


@pytest.mark.parametrize("fn, mask", [(K.minor_talent_try, K.MINOR_MASK), (K.major_talent_try, K.MAJOR_MASK)],
                         ids=["minor", "major"])
def test_gate_mask_covers_every_code_the_dispatcher_reads(fn, mask):
    codes = _codes(fn)
    assert len(codes) >= 8  # the pattern still finds the dispatcher's checks
    missing = []
    for name in sorted(codes):
        code = getattr(K, name)
        bit = code if code < K.E_MORE else K.E_MORE  # codes from 64 set E_MORE in C_TMASK
        if (mask >> bit) & 1 == 0:
            missing.append(name)
    assert not missing, f"{fn.__name__}: add {missing} to its gate mask"


def test_gate_masks_hold_heal_and_second_wind():
    """``minor_talent_try`` reaches ``try_heal`` for Heal and Second Wind alike."""
    assert (K.MINOR_MASK >> K.E_HEAL) & 1 and (K.MINOR_MASK >> K.E_SECOND_WIND) & 1
