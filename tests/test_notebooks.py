"""Every notebook runs end to end on small trial counts (code cells executed in order)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("MGSIM_ROOT", str(ROOT))
    monkeypatch.setenv("MGSIM_NOTEBOOK_TRIALS", "5000")
    monkeypatch.chdir(path.parent)
    nb = json.loads(path.read_text())
    ns: dict = {"__name__": "__notebook__"}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}:{cell.get('id')}", "exec"), ns)


def test_there_is_a_notebook():
    assert NOTEBOOKS and os.path.getsize(NOTEBOOKS[0]) > 0
