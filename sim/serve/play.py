"""The workbench's Fight tab: one seeded fight (or game) of the editor's text, event by event.

:func:`play_text` loads the text as ``sim validate`` does and plays trial ``trial`` of
``sim run --seed seed`` of one variant with :func:`sim.api.play_events`, the engine's own
functions run in Python (nothing is compiled, nothing written): the same log as ``sim play
FILE --trial N --variant V --json``. Plays run one at a time (the 4.1 replay binds private
copies of the engine's modules) and stop at :data:`MAX_EVENTS` events.
"""
from __future__ import annotations

import threading
import time

from sim.scenario import ScenarioError, load_document, load_yaml_text

#: the most events a page is sent (a 30-round hex fight of eight is about 3,000)
MAX_EVENTS = 20_000
_LOCK = threading.Lock()


def play_text(text: str, label: str, variant: str | None, trial: int, seed: int | None) -> dict:
    """``{"ok": True, "system", "variant", "variants", "trial", "seed", "events", "cut", "seconds"}``,
    or ``{"ok": False, "message"}`` with one sentence (a text that does not load, a study file,
    a system without a log, an unknown variant)."""
    from sim import api

    t0 = time.perf_counter()
    try:
        doc = load_yaml_text(text, label)
        if isinstance(doc.data, dict) and "study" in doc.data:
            return {"ok": False, "message": "a study file plays many arms: open one of its scenarios to watch a fight"}
        loaded = load_document(doc)
        name = variant or loaded.variants[0][0]
        seed = int(loaded.base.seed) if seed is None else seed
        with _LOCK:
            events = api.play_events(loaded, variant=name, seed=seed, trial=trial)
    except (ScenarioError, api.PlayError) as e:
        return {"ok": False, "message": str(e)}
    cut = len(events) > MAX_EVENTS
    return {"ok": True, "system": loaded.system, "variant": name, "variants": [n for n, _ in loaded.variants],
            "trial": trial, "seed": seed, "events": events[:MAX_EVENTS], "cut": cut,
            "seconds": round(time.perf_counter() - t0, 3)}
