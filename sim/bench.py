"""``sim bench``: how fast the simulator is, measured in one run.

What is measured (:func:`run_bench`), on whatever machine runs it:

* ``raw_d6_per_s`` -- the bare generator: :func:`sim.dice.fill_d6` filling a
  large int8 array with d6 (prange over all numba threads), best of 3 after
  a warm-up call.
* ``duel_per_s`` -- whole 1v1 fights of ``scenarios/duel-basic.yaml``
  through :func:`sim.systems.mb41.simulate` as ``sim run`` plays them
  (prange over trials, all numba threads), best of 3 after a warm-up call.
  The duel qualifies for the duel fast path (:mod:`sim.systems.mb41.fast`,
  ``duel_path``), whose counters are bit-identical to the general kernel's
  (tested); ``duel_general_per_s`` times the general kernel on the same
  duel for comparison. Each trial seeds its own streams, so this includes
  the per-trial seeding.
* ``python_duel_per_s`` -- the same duel in plain Python
  (:mod:`sim.bench_python`, one thread, ``random.Random``), best of 3; and
  ``duel_vs_python = duel_per_s / python_duel_per_s``. The kernel uses all
  numba threads and the Python version one core, as each would be used in
  practice; ``duel_vs_python_per_thread`` divides by the thread count.
* ``kernel_vs_raw`` -- d6 consumed per second inside the duel kernel over
  ``raw_d6_per_s``. Dice per duel are estimated from the kernel's own
  counters over the timed trials: every attack rolls 2d6! for the attacker
  and 2d6! for the defender, and ``Nd6!`` rolls on average ``N * 6/5`` dice
  (a six, probability 1/6, adds one), so 2.4 + 2.4 = 4.8 dice per attack,
  plus one damage die per hit (1d6). ``dice_per_duel = (4.8 * attacks +
  hits) / duels``; the expectation is exact, and over 10^5+ duels its error
  is far below the timing noise. Listed initiative rolls nothing. These are
  the dice the rules roll; the kernel draws them in batches (one 32-bit
  draw gives both pools and the damage die of an attack,
  :func:`sim.dice.opposed_2d6`), so the ratio can exceed 1.
* ``cold_start_s`` / ``warm_start_s`` -- wall time of ``sim run
  scenarios/quickstart.yaml --trials 20000 --quiet --no-write`` as a
  subprocess: cold with ``NUMBA_CACHE_DIR`` pointing at a fresh empty
  directory (every kernel compiles), warm the same command again with that
  now-filled cache. ``warm_start_default_cache_s`` runs it with the normal
  cache (for information; it is warm unless the sources changed since the
  last run).
* ``scale_*`` -- throughput scaling over processes, on the reference duel
  through the runner (:func:`sim.runner._advance`: its keyed tasks, merged
  in order), every process pinned to one numba thread:
  ``scale_1_worker_per_s`` in this process; ``scale_joblib_2_workers_per_s``
  on 2 joblib (loky) workers; ``scale_dask_2_workers_per_s`` on a
  2-worker dask LocalCluster (:mod:`sim.distributed`). The ratios
  ``scale_joblib_2_workers`` and ``scale_dask_2_workers`` divide each by the
  1-worker rate (targets 1.8 and 1.6 on a 2-core machine). Each is the best
  of 3 after a warm-up round (the pools and cluster are started, and their
  kernels loaded, before timing), the three timed in turn so that a change
  in the machine's load hits all alike; ``loadavg_1m_before_scaling`` is the
  load just before. On a busy machine the ratios say little. The counters of every timed run are checked equal to the
  1-worker run's.

Nothing here is hard-coded: ``targets`` are the goals, ``meets_targets``
compares the measured values with them.
"""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sim.timing import REPEATS, best_time  # noqa: F401 - best_time: the systems' benches use it

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
DUEL_SCENARIO = SCENARIOS / "duel-basic.yaml"
START_SCENARIO = SCENARIOS / "quickstart.yaml"
START_TRIALS = 20_000

#: goals; "warm_start_s" is an upper bound, the others lower bounds
TARGETS = {"raw_d6_per_s": 5e8, "duel_per_s": 5e6, "duel_vs_python": 200, "warm_start_s": 3.0,
           "scale_joblib_2_workers": 1.8, "scale_dask_2_workers": 1.6}
_UPPER_BOUND = {"warm_start_s"}

#: sizes (full run, quick run)
RAW_DICE = (200_000_000, 10_000_000)
DUELS = (4_000_000, 200_000)
PYTHON_DUELS = (20_000, 2_000)
SCALING_DUELS = (1 << 24, 1 << 19)  # whole numbers of the runner's 2^18-trial chunks, even per worker; 2^24 (about 1.8 s on one
#: worker) amortises the pool's and the cluster's per-task costs: 2^23 measured 1.80 and 1.76, 2^24 1.87 and 1.86

#: average dice rolled by 2d6! (each die is followed by another with probability 1/6)
EXPLODING_2D6_DICE = 2 * 6 / 5

SEED = 20240601


# ---------------------------------------------------------------- pieces


def bench_raw(n: int) -> float:
    """Raw d6 per second of :func:`sim.dice.fill_d6` on ``n`` int8 cells."""
    from sim.dice import fill_d6
    from sim.rng import stream_key

    key = stream_key(SEED)
    fill_d6(key, np.empty(1024, dtype=np.int8))  # compile / load from cache
    out = np.empty(n, dtype=np.int8)
    fill_d6(key, out)  # touch the pages
    t = best_time(lambda: fill_d6(key, out))
    if not (out.min() >= 1 and out.max() <= 6):
        raise RuntimeError("fill_d6 produced values outside 1..6")
    return n / t


def duel_inputs(path: str | os.PathLike = DUEL_SCENARIO):
    """Compiled kernel inputs of the reference duel (its first variant)."""
    from sim.scenario import load_scenario

    loaded = load_scenario(str(path))
    if loaded.system != "mb41":
        raise ValueError(f"{path}: the duel benchmark needs an mb41 scenario, got {loaded.system!r}")
    return loaded.module.compile(loaded.variants[0][1])


def python_fighters(inputs):
    """The two :class:`sim.bench_python.Fighter` of a compiled duel.

    Raises ``ValueError`` if the scenario uses a rule the plain-Python
    version does not play (it must be the same fight as the kernel's).
    """
    from sim.bench_python import MIN_DAMAGE, ROUND_CAP, SIX_DAMAGE, Fighter
    from sim.systems.mb41 import codes as E
    from sim.systems.mb41 import layout as L

    r = inputs.rule_table
    expected = {
        "initiative listed": r[L.R_INITIATIVE] == 1,
        "no revive": r[L.R_REVIVE] == 0,
        "defeat all_down (all_out: the same without revive)": r[L.R_DEFEAT] in (0, 2),
        "full tie to the defender": r[L.R_FULL_TIE] == 0,
        f"round cap {ROUND_CAP}": r[L.R_ROUND_CAP] == ROUND_CAP,
        f"six damage {SIX_DAMAGE}": r[L.R_SIX_DAMAGE] == SIX_DAMAGE,
        f"min damage {MIN_DAMAGE}": r[L.R_MIN_DAMAGE] == MIN_DAMAGE,
        "1 damage die": r[L.R_DAMAGE_DICE] == 1,
        "two combatants": inputs.n == 2,
        "one per side": inputs.n == 2 and list(inputs.sides) == [0, 1],
        "no boost": bool(np.all(inputs.pol[:, L.P_BOOST] == E.BOOST_NEVER)),
    }
    bad = [k for k, ok in expected.items() if not ok]
    if bad:
        raise ValueError("the plain-Python duel does not play this scenario; it needs: " + ", ".join(bad))
    c = inputs.comb
    return tuple(Fighter(inputs.names[i], attack=int(c[i, L.C_ATT]), defence=int(c[i, L.C_DEF]),
                         resolve=int(c[i, L.C_RES]), damage_bonus=int(c[i, L.C_DMG]))
                 for i in range(2))


def bench_duel(inputs, n: int) -> dict:
    """Duels per second of the mb41 kernel, and the dice it rolls per duel."""
    from sim.rng import stream_key
    from sim.systems.mb41 import layout as L
    from sim.systems.mb41 import simulate

    from sim.systems.mb41 import fast

    key = stream_key(SEED)
    simulate(inputs, 0, 4096, key)  # compile / load from cache
    simulate(inputs, 0, 4096, key, fast=False)
    box = {}

    def once():
        box["c"] = simulate(inputs, 0, n, key)

    def general():
        simulate(inputs, 0, n // 4, key, fast=False)

    t = best_time(once)
    t_general = best_time(general)
    c = box["c"]
    outcomes = c["outcomes"]
    attacks = int(c["combatants"][:, L.K_ATTACKS].sum())
    hits = int(c["combatants"][:, L.K_HITS].sum())
    dice = (2 * EXPLODING_2D6_DICE * attacks + hits) / n
    return {
        "duel_per_s": n / t,
        "duel_path": "general" if fast.eligible(inputs) else "fast",
        "duel_general_per_s": (n // 4) / t_general,
        "kernel_win_rate": float(outcomes[0] / n),
        "attacks_per_duel": attacks / n,
        "hits_per_duel": hits / n,
        "dice_per_duel": dice,
    }


def bench_python(fighters, n: int) -> dict:
    """Duels per second of the plain-Python duel (one thread)."""
    from sim.bench_python import run_duels

    box = {}

    def once():
        box["c"] = run_duels(n, SEED, *fighters)

    t = best_time(once)
    return {"python_duel_per_s": n / t, "python_win_rate": box["c"][0] / n}


def sim_command() -> list[str]:
    """How to start the CLI in a subprocess: this interpreter, ``-m sim.cli``."""
    return [sys.executable, "-m", "sim.cli"]


def time_start(scenario: str | os.PathLike, trials: int = START_TRIALS,
               cache_dir: str | None = None) -> float:
    """Wall time of ``sim run SCENARIO --trials N --quiet --no-write`` in a subprocess.

    ``cache_dir`` sets ``NUMBA_CACHE_DIR``; ``None`` keeps the normal cache.
    """
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    cmd = sim_command() + ["run", str(scenario), "--trials", str(trials), "--quiet", "--no-write"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=str(ROOT), env=env, capture_output=True, text=True)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed with status {p.returncode}:\n{p.stderr.strip()}")
    return t


def bench_start(scenario: str | os.PathLike) -> dict:
    """Cold (fresh numba cache), warm (same cache again) and default-cache start times."""
    tmp = tempfile.mkdtemp(prefix="sim-bench-numba-")
    try:
        cold = time_start(scenario, cache_dir=tmp)
        warm = time_start(scenario, cache_dir=tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    default = time_start(scenario)
    return {"cold_start_s": cold, "warm_start_s": warm, "warm_start_default_cache_s": default}


def bench_scaling(n: int) -> dict:
    """Duels per second on 1 process, 2 joblib workers and a 2-worker dask LocalCluster.

    ``n`` duels of the reference duel per timed run, all through the
    runner's keyed tasks with one numba thread per process; the counters of
    every run must equal the 1-process run's (``RuntimeError`` otherwise).
    """
    import numba

    from sim import distributed, runner
    from sim.rng import stream_key
    from sim.scenario import load_scenario

    loaded = load_scenario(str(DUEL_SCENARIO))
    inputs = loaded.module.compile(loaded.variants[0][1])
    key = stream_key(SEED)
    box: dict = {}

    def once(label, workers, backend):
        v = runner._Variant("duel", None, inputs, key)
        t0 = time.perf_counter()
        runner._advance(loaded.system, [v], [n], workers, 1, None, backend=backend)
        box[label] = v.counters
        return time.perf_counter() - t0

    before = numba.get_num_threads()
    out = {"loadavg_1m_before_scaling": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}
    cluster = None
    try:
        cluster = distributed.connect("local:2", threads=1)
        setups = {"1_worker": (1, None), "joblib_2_workers": (2, None), "dask_2_workers": (1, cluster)}
        for label, (workers, backend) in setups.items():
            once(label, workers, backend)  # warm-up: start the pool or cluster, load the kernels there
        best = dict.fromkeys(setups, float("inf"))
        for _ in range(REPEATS):  # interleaved, so a change in the machine's load hits all three alike
            for label, (workers, backend) in setups.items():
                best[label] = min(best[label], once(label, workers, backend))
    finally:
        if cluster is not None:
            cluster.close()
        numba.set_num_threads(before)
    for label, t in best.items():
        out[f"scale_{label}_per_s"] = n / t
    for label in ("joblib_2_workers", "dask_2_workers"):
        for k, a in box["1_worker"].items():
            if not np.array_equal(a, box[label][k]):
                raise RuntimeError(f"bench: the {label} run's counter {k} differs from the 1-worker run's")
    one = out["scale_1_worker_per_s"]
    out["scale_joblib_2_workers"] = out["scale_joblib_2_workers_per_s"] / one
    out["scale_dask_2_workers"] = out["scale_dask_2_workers_per_s"] / one
    return out


# ---------------------------------------------------------------- the benchmark


def meets(results: dict, targets: dict = TARGETS) -> dict:
    """Per target: whether the measurement meets it; ``None`` when it was not
    measured (``sim bench --no-start`` leaves the start times out)."""
    out = {}
    for k, goal in targets.items():
        v = results.get(k)
        out[k] = None if v is None else bool(v <= goal if k in _UPPER_BOUND else v >= goal)
    return out


def run_bench(quick: bool = False, *, start_scenario: str | os.PathLike | None = None,
              start: bool = True) -> dict:
    """Measure everything once; returns a JSON-able dict (see the module docstring).

    ``start_scenario`` overrides the scenario of the start-time runs
    (default ``scenarios/quickstart.yaml``; for tests only). ``start=False``
    (``sim bench --no-start``) skips them: the cold start compiles the
    scenario's kernels in a fresh cache, about a minute; ``cold_start_s``,
    ``warm_start_s`` and ``warm_start_default_cache_s`` are then ``None``.
    """
    import numba

    q = 1 if quick else 0
    scenario = Path(start_scenario) if start_scenario is not None else START_SCENARIO
    if not scenario.is_file():
        raise FileNotFoundError(f"start-time scenario not found: {scenario}")

    res: dict = {"quick": bool(quick)}
    # other processes share the CPUs: the 1-minute load before starting helps read the numbers
    res["loadavg_1m_before"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    res["raw_d6_per_s"] = bench_raw(RAW_DICE[q])

    inputs = duel_inputs()
    fighters = python_fighters(inputs)
    res.update(bench_duel(inputs, DUELS[q]))
    res.update(bench_python(fighters, PYTHON_DUELS[q]))
    res["duel_vs_python"] = res["duel_per_s"] / res["python_duel_per_s"]
    threads = numba.get_num_threads()
    res["duel_vs_python_per_thread"] = res["duel_vs_python"] / threads
    res["kernel_d6_per_s"] = res["duel_per_s"] * res["dice_per_duel"]
    res["kernel_vs_raw"] = res["kernel_d6_per_s"] / res["raw_d6_per_s"]

    # each rule system may add its own measurements: a ``bench(quick) -> dict``
    # in its plug-in module, whose ``targets`` entry extends TARGETS
    targets = dict(TARGETS)
    from sim.systems import get_system, names

    # the 4.1 party fight (the duel above is 4.1's other measurement); a tier-2 build compiled
    # as a run's is (sim.tiers.compile_now: its own process, its LLVM level)
    from sim import tiers
    from sim.systems.mb41 import benchmark as mb41_bench

    extra = mb41_bench.run(quick, compile_build=tiers.compile_now)
    targets.update(extra.pop("targets", {}))
    res.update(extra)
    for name in names():
        mod = get_system(name)
        if name != "mb41" and hasattr(mod, "bench"):
            extra = dict(mod.bench(quick))
            targets.update(extra.pop("targets", {}))
            res.update(extra)

    if start:
        res.update(bench_start(scenario))
    else:
        res.update({"cold_start_s": None, "warm_start_s": None, "warm_start_default_cache_s": None})
    res.update(bench_scaling(SCALING_DUELS[q]))
    res["start_scenario"] = os.path.relpath(scenario, ROOT) if scenario.is_relative_to(ROOT) else str(scenario)
    res["start_trials"] = START_TRIALS

    res["sizes"] = {"raw_d6": RAW_DICE[q], "duels": DUELS[q], "python_duels": PYTHON_DUELS[q],
                    "scaling_duels": SCALING_DUELS[q],
                    "repeats": REPEATS}
    res["threads"] = threads
    res["cpu_count"] = os.cpu_count()
    res["numba"] = numba.__version__
    res["numpy"] = np.__version__
    res["python"] = platform.python_version()
    res["targets"] = targets
    res["meets_targets"] = meets(res, targets)
    return res


def _num(v) -> str:
    if isinstance(v, (bool, str)) or v is None:
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if abs(v) >= 1e5:
        return f"{v:.3g}"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


_ROWS = [
    ("raw_d6_per_s", "raw d6 / s (fill_d6)"),
    ("duel_per_s", "duels / s (kernel)"),
    ("duel_path", "duel path"),
    ("duel_general_per_s", "duels / s (general kernel)"),
    ("python_duel_per_s", "duels / s (plain Python)"),
    ("duel_vs_python", "kernel / Python"),
    ("duel_vs_python_per_thread", "kernel / Python per thread"),
    ("dice_per_duel", "d6 per duel (estimate)"),
    ("kernel_vs_raw", "kernel d6 rate / raw"),
    ("kernel_win_rate", "win rate (kernel)"),
    ("python_win_rate", "win rate (Python)"),
    ("cold_start_s", "cold start s (empty cache)"),
    ("warm_start_s", "warm start s"),
    ("warm_start_default_cache_s", "warm start s (default cache)"),
    ("scale_1_worker_per_s", "duels / s, 1 process, 1 thread"),
    ("scale_joblib_2_workers_per_s", "duels / s, 2 joblib workers"),
    ("scale_joblib_2_workers", "scaling 1 -> 2 joblib workers"),
    ("scale_dask_2_workers_per_s", "duels / s, dask LocalCluster of 2"),
    ("scale_dask_2_workers", "scaling 1 -> 2 dask workers"),
    ("loadavg_1m_before_scaling", "load (1 min) before scaling"),
    ("party_fight_per_s", "4.1 party fights / s, hex (general engine)"),
    ("party_fight_per_s_tier2", "4.1 party fights / s, hex (tier 2)"),
    ("party_fight_gridless_per_s", "4.1 party fights / s, gridless (general engine)"),
    ("party_fight_gridless_per_s_tier2", "4.1 party fights / s, gridless (tier 2)"),
    ("study_rows_gridless_per_s", "4.1 party fights / s, gridless, a study's rows"),
    ("study_rows_vs_counters", "a study's rows / the run's counters"),
]


def _verdict(ok) -> str:
    """The ``ok`` column: yes, NO, or nothing for a measurement left out."""
    if ok is None:
        return ""
    return "yes" if ok else "NO"


def format_bench(d: dict) -> str:
    """A readable table: metric, value, target, ok."""
    targets = d.get("targets", TARGETS)
    ok = d.get("meets_targets", {})
    rows = [("metric", "value", "target", "ok")]
    for key, label in _ROWS:
        if key not in d:
            continue
        if key in targets:
            sign = "<=" if key in _UPPER_BOUND else ">="
            tgt, good = f"{sign} {_num(targets[key])}", _verdict(ok.get(key))
        else:
            tgt, good = "", ""
        rows.append((label, "not measured" if d[key] is None else _num(d[key]), tgt, good))
    # measurements added by rule systems (d10, cards...): every numeric key
    # not in the table above, with its target when it has one
    shown = {k for k, _ in _ROWS}
    skip = {"quick", "loadavg_1m_before", "loadavg_1m_before_scaling", "threads", "cpu_count", "start_trials"}
    for key, v in d.items():
        if key in shown or key in skip or isinstance(v, (bool, dict, list, str)) or v is None:
            continue
        if key in targets:
            sign = "<=" if key in _UPPER_BOUND else ">="
            tgt, good = f"{sign} {_num(targets[key])}", _verdict(ok.get(key))
        else:
            tgt, good = "", ""
        rows.append((key, _num(v), tgt, good))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join([r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in (1, 2)]
                               + [r[3].ljust(widths[3])]).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    head = (f"sim bench{' --quick' if d.get('quick') else ''}: {d.get('threads')} numba threads, "
            f"{d.get('cpu_count')} CPUs, Python {d.get('python')}, numba {d.get('numba')}, "
            f"numpy {d.get('numpy')}")
    start = (f"start times: sim run {d.get('start_scenario')} --trials {d.get('start_trials')} "
             "--quiet --no-write")
    if d.get("cold_start_s") is None:
        start = "start times: not measured (--no-start)"
    return "\n".join([head, "", *lines, "", start])
