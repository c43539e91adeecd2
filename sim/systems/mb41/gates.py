"""The hooks' gates (:data:`.hooks.HOOKS`), turned into data when a scenario is compiled.

A hook's gate (:func:`.hooks.gate_row`) is the effect codes that open it, met in
the talent masks of the combatant its scope names, and an armed state. The masks
are static (``C_TMASK``, ``C_SIDEMASK``, ``C_FOEMASK``...), so the mask test is
done here, once per scenario: :func:`hook_bits` writes, per combatant and
timing point ``t``, the bits of the hooks that may open for her as the point's
``a`` (``C_HOOKS + t``) and as its ``b`` (``C_HOOKS_B + t``). The armed state,
which changes during a fight, is tested by the loop (:mod:`.points`) on the
slot's :func:`armed_code` (``rules[ARM_<T> + k]``). ``T_<NAME>`` is a timing
point's index, the one number a kernel names.

Plain Python: a new hook at a timing point changes the bits and the tables a
scenario compiles into, not a kernel.
"""
from __future__ import annotations

import numpy as np

from . import hooks
from . import layout as L

#: a timing point's index (``C_HOOKS + T_<NAME>``, ``PR_HOOKS + HOOK_ROOM * T_<NAME>``)
for _k, _t in enumerate(hooks.TIMINGS):
    globals()[f"T_{_t}"] = _k
_COLUMNS = L.STATE.constants()

__all__ = [f"T_{_t}" for _t in hooks.TIMINGS]


def _mask_opens(lo: int, hi: int, w_lo: int, w_hi: int) -> bool:
    return bool((int(w_lo) & lo) | (int(w_hi) & hi))


def hook_bits(comb: np.ndarray) -> None:
    """Write ``C_HOOKS`` / ``C_HOOKS_B`` of every row of ``comb`` from its masks (``C_TMASK``,
    ``C_TMASK2``, ``C_SIDEMASK``, ``C_SIDEMASK2``, ``C_FOEMASK``; compute those first)."""
    comb[:, L.C_HOOKS:L.C_HOOKS + len(hooks.TIMINGS)] = 0
    comb[:, L.C_HOOKS_B:L.C_HOOKS_B + len(hooks.TIMINGS)] = 0
    for t, name in enumerate(hooks.TIMINGS):
        for k, h in enumerate(hooks.at(name)):
            g = dict(zip(hooks.GATE_FIELDS, hooks.gate_row(h, _COLUMNS)))
            for i in range(comb.shape[0]):
                own, own2 = comb[i, L.C_TMASK], comb[i, L.C_TMASK2]
                side, side2 = comb[i, L.C_SIDEMASK], comb[i, L.C_SIDEMASK2]
                as_a = g["always"] != 0 or _mask_opens(g["a_lo"], g["a_hi"], own, own2) \
                    or _mask_opens(g["a_side_lo"], g["a_side_hi"], side, side2) \
                    or bool(int(comb[i, L.C_FOEMASK]) & g["a_foes_lo"])
                as_b = _mask_opens(g["b_lo"], g["b_hi"], own, own2) or _mask_opens(g["b_side_lo"], g["b_side_hi"],
                                                                                     side, side2)
                if as_a:
                    comb[i, L.C_HOOKS + t] |= 1 << k
                if as_b:
                    comb[i, L.C_HOOKS_B + t] |= 1 << k


def armed_code(h: hooks.Hook) -> int:
    """A hook's armed state as one int: 0 none; else ``(column + 1) << 2 | row << 1 | off``
    (row 0 ``a`` / 1 ``b``; ``off`` 1 when the column is unset at -1, 0 at 0)."""
    if h.armed is None:
        return 0
    col, who, off = h.armed
    return ((_COLUMNS[col] + 1) << 2) | ({"a": 0, "b": 1}[who] << 1) | (1 if off == -1 else 0)


def armed_table() -> np.ndarray:
    """``rules[ARM_...]``: every slot's :func:`armed_code`, int64[NARM]."""
    out = np.zeros(L.NARM, dtype=np.int64)
    for t, name in enumerate(hooks.TIMINGS):
        for k, h in enumerate(hooks.at(name)):
            out[t * hooks.ROOM + k] = armed_code(h)
    return out
