"""The fight's outcome check (:func:`sim.systems.mb41.state.outcome_now`) first tries the rows
that kept each side in at its last full pass (``D_KEEPER``, row 0). That hint only spares the
pass: whatever it holds (a row of the other side, a row down or dead, a value carried from a
scene with more rows), the outcome is the rows' state's, as the rule ``defeat`` reads it
(RULINGS; L1445-1451 for ``all_out``)."""
from __future__ import annotations

import numpy as np
import pytest

from engine41 import K
from helpers import mb41_call, mb41_data, mb41_inputs, mb41_member, mb41_state


def expected(comb, defeat, dyn):
    """The outcome spelled out: a side is in while one of its rows is not dead, not an illusion
    (Marionette's copy) and standing (``all_down``), or anyhow (``all_dead``), or standing or
    rising with her revive's Resolve pending (``all_out``)."""
    alive = [False, False]
    for j in range(comb.shape[0]):
        if dyn[j, K.D_DEAD] != 0 or comb[j, K.C_SPAWN_KIND] == K.SPAWN_COPY:
            continue
        if defeat == "all_dead" or dyn[j, K.D_RES] > 0 or (defeat == "all_out" and dyn[j, K.D_PENDING] != -1):
            alive[int(comb[j, K.C_SIDE])] = True
    if alive[0] and alive[1]:
        return -1
    return K.F_WIN if alive[0] else (K.F_LOSS if alive[1] else K.F_DRAW)


@pytest.mark.parametrize("defeat", ["all_down", "all_dead", "all_out"])
def test_the_hint_never_changes_the_outcome(defeat):
    side_a = [mb41_member("Aoi"), mb41_member("Bea")]
    side_b = [mb41_member("Cho"), mb41_member("Dai"), mb41_member("Eri")]
    inp = mb41_inputs(mb41_data(side_a, side_b, {"defeat": defeat}))
    comb = inp.comb.copy()
    n = comb.shape[0]
    rng = np.random.default_rng(38)
    seen = set()
    for trial in range(1500):
        comb[:, K.C_SPAWN_KIND] = 0
        if trial % 5 == 0:
            comb[rng.integers(n), K.C_SPAWN_KIND] = K.SPAWN_COPY
        dyn, _ = mb41_state(inp)
        dyn[:, K.D_DEAD] = rng.random(n) < 0.25
        dyn[:, K.D_RES] = rng.integers(-1, 3, n)
        dyn[:, K.D_PENDING] = rng.choice([-2, -1, -1, 0, 3], n)
        hints = rng.integers(-2, n + 3, 2)
        dyn[0, K.D_KEEPER:K.D_KEEPER + 2] = hints
        want = expected(comb, defeat, dyn)
        got = int(mb41_call(K.outcome_now, comb=comb, rules=inp.rules, dyn=dyn))
        assert got == want, (trial, hints.tolist(), dyn[:, [K.D_DEAD, K.D_RES, K.D_PENDING]].tolist())
        # asked again, the hint the first call left gives the same answer
        assert int(mb41_call(K.outcome_now, comb=comb, rules=inp.rules, dyn=dyn)) == want
        seen.add(want)
    assert seen == {-1, K.F_WIN, K.F_LOSS, K.F_DRAW}
