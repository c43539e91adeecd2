"""The rebuilt 4.1 / draft engine holds the results pinned before the rebuild.

``tests/data/mb41_pinned.npz`` (``tools/pin_mb41.py``, run on commit db683a7,
the engine before the rebuild) holds, for every scenario of ``scenarios/mb41``
and ``scenarios/mb-draft`` and every variant, every counter (outcomes, rounds,
survival curves, each combatant's counters by name, an episode's per-scene and
party counters): its mean per trial over trials ``0 .. 10^6-1`` (fewer where
the time did not allow) and its per-trial variance, from the spread of 200
batch means (many batches: heavy-tailed counters, like a frenzy's Resolve,
need them for an honest spread). The scenarios whose results issue 35's rule fixes moved
(``meta["repinned"]``: the default ``defeat: all_out``, no revive roll that cannot take
effect, Aura of Strength on every adjacent enemy, ``scream_min`` 3 honoured, Thick Hide on an
interceptor's share) were pinned again on its branch, at 250,000 trials a variant; so were
the two that issue 34's one turn moved (``meta["repinned"]["then"]``: ``affinity-guardian``,
Reflector needs her standing after Backlash; ``party-vs-boss-labyrinth``, Bonus Action, Steal
Action and Follow Up on the grid; docs/status-mb41.md, "One turn in every geometry").

Here each variant plays :data:`TRIALS` other trials (from ``10^6`` on, so the
comparison is fair whether or not the engine draws its dice as it did). The
file also holds what the pinned engine gave on exactly those trials: an engine
that draws its dice as it did gives the same sums, bit for bit, and passes.
Otherwise every counter's mean per trial must lie within 4.5 standard errors
of the pinned mean. The normal approximation needs a counter that moves often enough:
one whose spread over those trials is small (``TRIALS * variance < 25``: a
rare event, or a value almost always the same) is not compared, unless it never
moved in the pinned trials and now moves by 5 or more (something new happens).
About 16,500 counters are compared, so a 4.5 standard error threshold gives
about one false alarm in ten runs of an engine that draws differently (the
failure names the counters and their z; one a little over 4.5 on a rare
counter deserves a look, not panic).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
PINNED = ROOT / "tests" / "data" / "mb41_pinned.npz"
TRIALS = 25_000
START = 10**6
Z_MAX = 4.5
MIN_SPREAD = 25.0
MIN_NEW = 5.0


def _load():
    z = np.load(PINNED, allow_pickle=False)
    return z, json.loads(str(z["meta"]))


def _cases():
    _, meta = _load()
    return [(scn, v) for scn, names in meta["scenarios"].items() for v in names]


def _split(counters: dict) -> dict:
    from sim.systems.mb41 import layout

    out = {}
    for k, v in counters.items():
        if k == "combatants":
            for name, (lo, w) in layout.counter_fields().items():
                out[f"combatants.{name}"] = np.asarray(v[:, lo:lo + w])
        else:
            out[k] = np.asarray(v)
    return out


def compare(name: str, got: np.ndarray, n_new: int, mean: np.ndarray, var: np.ndarray, m_pin: int) -> list[str]:
    """Counters ``got`` (summed over ``n_new`` trials) against the pinned ``mean`` and
    per-trial ``var`` (over ``m_pin`` trials); returns the failures, worst first."""
    mu_new = got.astype(float) / n_new
    tested = var * n_new >= MIN_SPREAD
    new = (var == 0) & (np.abs(mu_new - mean) * n_new >= MIN_NEW)
    tested = tested | new
    se = np.sqrt(var / n_new + var / m_pin)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, np.abs(mu_new - mean) / np.where(se > 0, se, 1.0),
                     np.where(mu_new == mean, 0.0, np.inf))
    z = np.where(tested, z, 0.0)
    bad = np.argwhere(z > Z_MAX)
    out = []
    for idx in bad[np.argsort(-z[tuple(bad.T)])][:5]:
        idx = tuple(int(x) for x in idx)
        out.append(f"{name}{list(idx)}: {mu_new[idx]:.6g} per trial, pinned {mean[idx]:.6g} (z = {z[idx]:.1f})")
    return out


def test_the_comparison_can_fail():
    """A counter off by 6 standard errors fails; one off by 2 passes; a rare one is not
    compared; one that never moved and now moves often fails."""
    mean, var = np.array([1.0, 1.0, 1e-5, 0.0]), np.array([1.0, 1.0, 1e-3, 0.0])
    n = 10_000
    se = np.sqrt(1 / n + 1 / 10**6)
    got = np.array([(1 + 6 * se) * n, (1 + 2 * se) * n, 2, 7])
    bad = compare("x", got, n, mean, var, 10**6)
    assert len(bad) == 2 and bad[0].startswith("x[3]") and bad[1].startswith("x[0]")


@pytest.mark.slow
@pytest.mark.parametrize("scenario, variant", _cases())
def test_engine_holds_the_pinned_results(scenario, variant):
    from sim import rng
    from sim.scenario import load_scenario

    z, meta = _load()
    loaded = load_scenario(ROOT / scenario)
    names = [name for name, _ in loaded.variants]
    idx = names.index(variant)
    crn = getattr(loaded.base, "crn", True)
    key = rng.stream_key(loaded.base.seed, 0 if crn else idx + 1)
    inputs = loaded.module.compile(loaded.variants[idx][1])
    n_batches, per = meta["trials"][f"{scenario}::{variant}"]
    start, trials = meta["window"]
    assert (start, trials) == (START, TRIALS), "tests/data/mb41_pinned.npz holds another window"
    got = _split(loaded.module.simulate(inputs, START, TRIALS, key))
    prefix = f"{scenario}::{variant}::"
    same = all(np.array_equal(got[k[len(prefix):-len("::window")]], z[k])
               for k in z.files if k.startswith(prefix) and k.endswith("::window"))
    if same:
        return  # the pinned engine's own sums on these trials, bit for bit
    failures = []
    for k in z.files:
        if not (k.startswith(prefix) and k.endswith("::mean")):
            continue
        name = k[len(prefix):-len("::mean")]
        assert name in got, f"counter {name} is gone from the engine's output"
        mean, var = z[k], z[k[:-len("mean")] + "var"]
        assert got[name].shape == mean.shape, f"{name}: shape {got[name].shape}, pinned {mean.shape}"
        failures += compare(name, got[name], TRIALS, mean, var, n_batches * per)
    assert not failures, f"{scenario} / {variant}: " + "; ".join(failures)
