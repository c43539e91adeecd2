"""Summary tables every fight system builds the same way from its counters."""
from __future__ import annotations

import pandas as pd


def side_sums(counters: dict, inputs, variant: str, columns: dict[str, int]) -> pd.DataFrame:
    """``sides.csv``: one row per side (``variant``, ``side``, ``members``) and, for
    each ``name: counter column`` of ``columns``, the column of
    ``counters["combatants"]`` summed over the side's members, per trial."""
    n = int(counters["outcomes"].sum())
    c = counters["combatants"]
    rows = []
    for s, side in enumerate(inputs.side_names):
        idx = [j for j in range(len(inputs.names)) if inputs.sides[j] == s]
        sub = c[idx]
        row = {"variant": variant, "side": side, "members": len(idx)}
        row.update({name: sub[:, col].sum() / n for name, col in columns.items()})
        rows.append(row)
    return pd.DataFrame(rows)
