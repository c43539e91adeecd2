"""Tier 2 of the 4.1 engine (sim/systems/mb41/tier2.py) plays the general engine's fights, bit for bit.

* The generated source: every procedure call of the engine's modules is written in as a
  direct call (no ``call(rules[PR_...])`` is left), every hook-point loop as the structure's
  hooks, in order; rule choices and talent checks of codes nobody holds become constants.
* Uncompiled (``NUMBA_DISABLE_JIT``, in a subprocess), tier 2 gives the general engine's
  counters on every fight of ``tests/data/mb41-hooks`` (together they call every hook), on
  bundled 4.1 and draft scenarios, and on random parties, talents, policies and rule
  choices (hypothesis).
* Compiled, on a small structure: the same counters, and the runner's tier plan plays the
  chunks after its background build on tier 2 with the same result as the general engine.

The compiled comparison of every bundled scenario is ``tools/same_counters.py --tier 2``
(docs/performance.md "Tier 2"): it compiles one build per structure, minutes each.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from helpers import run_python


ROOT = Path(__file__).resolve().parents[1]
HOOK_FIGHTS = sorted(str(p) for p in (ROOT / "tests" / "data" / "mb41-hooks").glob("*.yaml"))
BUNDLED = [str(ROOT / "scenarios" / p) for p in (
    "mb41/party-vs-boss.yaml", "mb41/party-vs-boss-hex.yaml", "quickstart.yaml", "mb41/episode-three-scenes.yaml",
    "mb-draft/positions-draft.yaml")]

#: runs in the subprocess (uncompiled): each scenario's counters on both tiers
BOTH = textwrap.dedent('''
    import json, sys
    import numpy as np
    from sim import rng
    from sim.scenario import load_scenario

    out = {}
    trials = int(sys.argv[1])
    for path in sys.argv[2:]:
        loaded = load_scenario(path)
        for name, model in loaded.variants[:1]:
            inp = loaded.module.compile(model)
            key = rng.stream_key(7, 1)
            a = loaded.module.simulate(inp, 0, trials, key, fast=False)
            b = loaded.module.simulate(inp, 0, trials, key, fast=False, tier=2)
            out[path] = [k for k in a if not np.array_equal(np.asarray(a[k]), np.asarray(b[k]))]
    print(json.dumps(out))
''')

#: runs in the subprocess (uncompiled): random scenarios, both tiers (hypothesis)
RANDOM = textwrap.dedent('''
    import json, sys
    sys.path[:0] = [sys.argv[1]]
    import numpy as np
    from hypothesis import given, settings, HealthCheck
    from helpers import mb41_inputs
    from test_mb41_talent_properties import scenarios
    from sim import rng
    from sim.systems import mb41

    differ = []
    played = []

    @settings(max_examples=int(sys.argv[2]), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(scenarios())
    def both(data):
        inp = mb41_inputs(data)
        key = rng.stream_key(data.get("seed", 0), 1)
        a = mb41.simulate(inp, 0, 6, key, fast=False)
        b = mb41.simulate(inp, 0, 6, key, fast=False, tier=2)
        played.append(int(a["outcomes"].sum()))
        bad = [k for k in a if not np.array_equal(a[k], b[k])]
        if bad:
            differ.append({"keys": bad, "scenario": data})

    both()
    print(json.dumps({"differ": differ[:3], "n": len(played), "trials": sum(played)}))
''')


def _run(code: str, args, tmp_path: Path, jit: bool = False, timeout: int = 900) -> dict:
    """``code`` in a subprocess (:func:`helpers.run_python`): the shared numba cache, where the
    general engine's kernels are already compiled, and tier 2's builds in ``tmp_path``
    (``MGSIM_TIER2_DIR``: a compiled build is compiled here, every time)."""
    return run_python(code, args, jit=jit, timeout=timeout, env={"MGSIM_TIER2_DIR": str(tmp_path / "tier2")})


def _inputs(path: str):
    from sim.scenario import load_scenario

    loaded = load_scenario(path)
    return loaded.module.compile(loaded.variants[0][1])


def test_the_build_calls_every_procedure_directly(tmp_path, monkeypatch):
    from sim.systems.mb41 import tier2

    monkeypatch.setattr(tier2, "root", lambda: tmp_path)
    inp = _inputs(BUNDLED[1])
    struct = tier2.structure(inp.comb, inp.rule_table)
    pkg, dest = tier2.build(struct)
    assert dest.parent == tmp_path and pkg.startswith("mgsim_t2_")
    left, points = [], 0
    for f in sorted(dest.rglob("*.py")):
        text = f.read_text()
        if f.name == "points.py" or f.name == "world.py":
            continue
        left += [f"{f.name}: {line.strip()}" for line in text.splitlines()
                 if "call(rules[PR_" in line and not line.strip().startswith(("#", "'", '"'))]
        points += text.count("_t2p.")
    assert left == [], left
    assert points > 20
    written = json.loads((dest / "STRUCTURE.json").read_text())["written"]
    assert written["calls"] > 30 and written["folded"] > 50 and written["points"] > 20
    # the hex fight's hooks: the structure lists them, each with the procedure in its slot
    assert any(struct["hooks"].values())
    assert struct["slots"]["PR_TURN"].endswith(":p_take_turn")
    # the key follows the structure, and a second build of the same structure is the same folder
    assert tier2.build(struct) == (pkg, dest)
    other = dict(struct, rules=dict(struct["rules"], R_FULL_TIE=1 - struct["rules"]["R_FULL_TIE"]))
    assert tier2.key(other) != tier2.key(struct)


def test_builds_no_run_will_load_again_are_pruned(tmp_path, monkeypatch):
    """A build of other sources (an older package) goes once idle, with its kernels in numba's
    cache; one in use stays; beyond KEEP current builds the least recently used goes."""
    import os
    import time

    from numba.core import config

    from sim.systems.mb41 import tier2

    builds, cache = tmp_path / "tier2", tmp_path / "cache"
    monkeypatch.setattr(tier2, "root", lambda: builds)
    monkeypatch.setattr(config, "CACHE_DIR", str(cache))
    mine = tier2._digest()  # this package's sources
    now = time.time()

    def fake(name, sources, idle_days):
        folder = builds / f"mgsim_t2_{name}"
        folder.mkdir(parents=True)
        (folder / "STRUCTURE.json").write_text(json.dumps({"sources": sources, "version": tier2.VERSION}))
        (folder / "READY").write_text("")
        t = now - idle_days * 86400
        os.utime(folder / "READY", (t, t))
        (cache / f"mgsim_t2_{name}_0123abcd").mkdir(parents=True)
        return folder

    fake("old_idle", "an older package", 2)
    fake("old_in_use", "an older package", 0)
    fake("mine_new", mine, 3)
    fake("mine_old", mine, 5)
    monkeypatch.setattr(tier2, "KEEP", 1)
    assert tier2.prune(now) == ["mgsim_t2_mine_old", "mgsim_t2_old_idle"]
    assert sorted(f.name for f in builds.iterdir()) == ["mgsim_t2_mine_new", "mgsim_t2_old_in_use"]
    assert sorted(f.name for f in cache.iterdir()) == ["mgsim_t2_mine_new_0123abcd", "mgsim_t2_old_in_use_0123abcd"]
    # a new build records its sources and prunes: with KEEP 1 it is the one kept of these sources
    inp = _inputs(BUNDLED[0])
    pkg, dest = tier2.build(tier2.structure(inp.comb, inp.rule_table))
    assert tier2._current(dest)
    assert sorted(f.name for f in builds.iterdir()) == sorted([pkg, "mgsim_t2_old_in_use"])


def test_a_stat_sweep_shares_one_build():
    from sim.systems.mb41 import layout as L
    from sim.systems.mb41 import tier2

    inp = _inputs(BUNDLED[0])
    comb = inp.comb.copy()
    comb[:, L.C_ATT] += 3
    comb[:, L.C_RES] += 5
    rules = inp.rule_table.copy()
    rules[L.R_ROUND_CAP] += 4
    assert tier2.key(tier2.structure(comb, rules)) == tier2.key(tier2.structure(inp.comb, inp.rule_table))


def test_tier2_is_the_general_engine_on_every_hook_fight(tmp_path):
    """Uncompiled: together these fights call every registered hook (tests/test_mb41_hooks.py)."""
    out = _run(BOTH, [12, *HOOK_FIGHTS], tmp_path)
    assert set(out) == set(HOOK_FIGHTS)
    assert {p: d for p, d in out.items() if d} == {}


def test_tier2_is_the_general_engine_on_bundled_scenarios(tmp_path):
    out = _run(BOTH, [8, *BUNDLED], tmp_path)
    assert {p: d for p, d in out.items() if d} == {}


def test_tier2_is_the_general_engine_on_random_parties(tmp_path):
    """Random parties, talents, policies and rule choices (hypothesis, uncompiled)."""
    out = _run(RANDOM, [ROOT / "tests", 40], tmp_path)
    assert out["n"] == 40 and out["trials"] == 40 * 6
    assert out["differ"] == []


COMPILED = textwrap.dedent('''
    import json, os, sys
    import numpy as np
    from sim import rng
    from sim.runner import run_loaded
    from sim.scenario import load_scenario

    loaded = load_scenario(sys.argv[1])
    inp = loaded.module.compile(loaded.variants[0][1])
    key = rng.stream_key(3, 1)
    was = loaded.module.tier2_key(inp)
    from sim import tiers
    tiers.compile_now("mb41", inp)  # as a run's build and sim warmup --tier2: a process of its own (BUILD_OPT)
    now = loaded.module.tier2_key(inp)  # the build records that it is compiled
    a = loaded.module.simulate(inp, 0, 3000, key)
    b = loaded.module.simulate(inp, 0, 3000, key, tier=2)  # loaded from the cache the build wrote
    differ = [k for k in a if not np.array_equal(a[k], b[k])]
    ra = loaded.module.trials(inp, 100, 3000, key)  # a study's rows (the rows' kernel of the build)
    rb = loaded.module.trials(inp, 100, 3000, key, tier=2)
    differ += ["rows:" + k for k in ra if not np.array_equal(ra[k], rb[k])]
    # the runner: tier 2 from the first chunk (compiled), against the general engine alone
    os.environ["MGSIM_TIER2_TRIALS"] = "0"
    general = run_loaded(loaded, trials=20000)
    os.environ["MGSIM_TIER2_TRIALS"] = "1"
    os.environ["MGSIM_TIER2_WARM_TRIALS"] = "1"
    tiered = run_loaded(loaded, trials=20000)
    pooled = run_loaded(loaded, trials=20000, workers=2)  # joblib workers play the warm build too
    runs = []
    for other in (tiered, pooled):
        frames = {"summary": (general.summary, other.summary), "curves": (general.curves, other.curves),
                  "rounds": (general.rounds, other.rounds)}
        frames.update({k: (general.tables[k], other.tables[k]) for k in general.tables})
        runs += [k for k, (x, y) in frames.items() if not x.equals(y)]
    print(json.dumps({"differ": differ, "was": was[1], "now": now[1], "runs_differ": runs,
                      "tiers": tiered.provenance["tiers"], "general": general.provenance["tiers"],
                      "pooled": pooled.provenance["tiers"]}))
''')


def test_tier2_compiled_gives_the_same_counters(tmp_path):
    """Compiled, a small structure (one talent a side, gridless), by a build's own process
    (:func:`sim.tiers.compile_now`, LLVM at :data:`sim.tiers.BUILD_OPT`): the same counters
    from the kernel, and from the runner when tier 2 plays every chunk."""
    out = _run(COMPILED, [ROOT / "tests" / "data" / "tier2-small.yaml"], tmp_path, jit=True)
    assert out["differ"] == []
    assert out["was"] is False and out["now"] is True
    assert out["runs_differ"] == []
    assert out["tiers"] and all(t == {"general": 0, "generated": 20000} for t in out["tiers"].values())
    assert out["pooled"] == out["tiers"]
    assert all(t["generated"] == 0 and t["general"] == 20000 for t in out["general"].values())


class _FakeBuild:
    """Stands for :class:`sim.tiers._Build`: ready after ``after`` looks (or failed)."""

    def __init__(self, system, inputs, key, after=2, fails=False):
        self.key, self.looks, self.after, self.fails, self.seconds = key, 0, after, fails, 1.0

    def state(self):
        self.looks += 1
        if self.looks < self.after:
            return "building"
        return "failed" if self.fails else "ready"

    def stop(self):
        pass

    def why(self):
        return "boom"


def _plan(monkeypatch, found, fails=False, env=None):
    from sim import tiers

    for k in (tiers.ENV, tiers.WARM_ENV):
        monkeypatch.delenv(k, raising=False)
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: found)
    monkeypatch.setattr(tiers, "_Build", lambda s, i, k: _FakeBuild(s, i, k, fails=fails))
    return tiers.Plan("mb41", quiet=True)


def _play(plan, chunks, planned=50_000_000):
    out = []
    plan.plan("v", None, planned)
    for _ in range(chunks):
        t = plan.tier("v", None)
        plan.record("v", t, 10)
        out.append(t)
    return out


def test_a_long_run_builds_tier2_in_the_background_and_switches(monkeypatch):
    plan = _plan(monkeypatch, ("k" * 20, False))
    # first chunk: general (warms it); second: the build starts, general plays; then ready
    assert _play(plan, 5) == [1, 1, 1, 2, 2]
    assert plan.provenance()["tiers"] == {"v": {"general": 30, "generated": 20}}
    assert "played 20 of 50" in plan.summary()
    plan.close()


def test_a_short_run_stays_on_the_general_engine(monkeypatch):
    plan = _plan(monkeypatch, ("k" * 20, False))
    assert _play(plan, 4, planned=5_000_000) == [1, 1, 1, 1]
    assert plan.summary() is None and not plan.builds


def test_a_compiled_build_plays_from_the_first_chunk(monkeypatch):
    plan = _plan(monkeypatch, ("k" * 20, True))
    assert _play(plan, 3, planned=2_000_000) == [2, 2, 2]
    plan = _plan(monkeypatch, ("k" * 20, True))
    assert _play(plan, 2, planned=500_000) == [1, 1]  # below the warm threshold


def test_a_failed_build_leaves_the_general_engine(monkeypatch):
    plan = _plan(monkeypatch, ("k" * 20, False), fails=True)
    assert _play(plan, 5) == [1, 1, 1, 1, 1]


def test_tier2_off_and_no_tier2(monkeypatch):
    assert _play(_plan(monkeypatch, ("k" * 20, True), env={"MGSIM_TIER2_TRIALS": "0"}), 3) == [1, 1, 1]
    assert _play(_plan(monkeypatch, None), 3) == [1, 1, 1]  # a system or a duel without tier 2


KEY = textwrap.dedent('''
    import json, sys
    import sim.systems.mb41.fight_log  # another import order than the test's
    from sim.scenario import load_scenario
    from sim.systems.mb41 import tier2

    loaded = load_scenario(sys.argv[1])
    inp = loaded.module.compile(loaded.variants[0][1])
    print(json.dumps({"key": tier2.key(tier2.structure(inp.comb, inp.rule_table))}))
''')


def test_every_process_finds_the_same_key():
    """The background build and the run that waits for it name the same build (the key hashes
    every engine module's cache key, whatever a process imported first)."""
    from sim.systems.mb41 import tier2

    inp = _inputs(BUNDLED[0])
    here = tier2.key(tier2.structure(inp.comb, inp.rule_table))
    there = run_python(KEY, [BUNDLED[0]], jit=True)["key"]
    assert there == here


def test_workers_play_a_warm_build_and_start_none(monkeypatch):
    """joblib workers' tasks are dealt out at once: tier 2 when an earlier run compiled the
    structure, else the general engine with no background build."""
    plan = _plan(monkeypatch, ("k" * 20, True))
    assert plan.pooled_tier("v", None, 2_000_000) == 2
    assert plan.pooled_tier("w", None, 10) == 2  # the run plays the build already: it joins
    short = _plan(monkeypatch, ("k" * 20, True))
    assert short.pooled_tier("w", None, 10) == 1  # too short a run to load a build for
    cold = _plan(monkeypatch, ("k" * 20, False))
    assert cold.pooled_tier("v", None, 10 ** 9) == 1
    assert _play(cold, 4, planned=10 ** 9) == [1, 1, 1, 1]  # the main process's chunks of a pooled run
    assert cold.builds == {}


def test_provenance_counts_every_trial_of_the_run(monkeypatch):
    """Trials played by workers count as the general engine's; a checkpoint's as resumed."""
    plan = _plan(monkeypatch, ("k" * 20, True))
    _play(plan, 3, planned=2_000_000)  # 30 trials here, on tier 2
    prov = plan.provenance({"v": 1030, "w": 500}, {"v": 1000, "w": 0})
    assert prov["tiers"] == {"v": {"general": 0, "generated": 30, "resumed": 1000},
                             "w": {"general": 500, "generated": 0}}
    assert prov["tier2_threshold"] == 35_000_000  # tiers.THRESHOLD (docs/performance.md "Tier 2")


def _sweep(plan, plans, chunks):
    """Play ``chunks[v]`` chunks of each variant in turn, as the runner does (every variant
    planned first, :meth:`sim.tiers.Plan.plan_all`); the tier of each chunk, per variant."""
    plan.plan_all([(v, inputs, n) for v, (inputs, n) in plans.items()])
    out = {}
    for v, (inputs, _n) in plans.items():
        plan.plan(v, inputs, 0)
        out[v] = []
        for _ in range(chunks[v]):
            t = plan.tier(v, inputs)
            plan.record(v, t, 10)
            out[v].append(t)
    return out


def test_the_variants_of_one_structure_add_up_and_share_one_build(monkeypatch):
    """Issue 38: tier 2 is chosen by "the planned fights for one structure". Three variants of
    a stat sweep, 20 M trials each, share a structure: 60 M trials, one build; a variant of
    another structure with 20 M stays on the general engine."""
    from sim import tiers

    plan = _plan(monkeypatch, None)
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: inputs)
    built = []
    monkeypatch.setattr(tiers, "_Build", lambda s, i, k: built.append(k) or _FakeBuild(s, i, k))
    a, b = ("a" * 20, False), ("b" * 20, False)
    got = _sweep(plan, {"hp 10": (a, 20_000_000), "hp 12": (a, 20_000_000), "other": (b, 20_000_000),
                        "hp 14": (a, 20_000_000)},
                 {"hp 10": 1, "hp 12": 2, "other": 3, "hp 14": 2})
    # one chunk of the structure warms the general engine; its next starts the build (ready
    # at its second look); the last variant plays on it
    assert got == {"hp 10": [1], "hp 12": [1, 1], "other": [1, 1, 1], "hp 14": [2, 2]}
    assert built == ["a" * 20]
    assert plan.keys == {"hp 10": "a" * 20, "hp 12": "a" * 20, "other": None, "hp 14": "a" * 20}
    assert plan.planned == {"a" * 20: 60_000_000}
    prov = plan.provenance()["tiers"]
    assert prov["hp 14"] == {"general": 0, "generated": 20} and prov["other"]["generated"] == 0


def test_a_structure_below_the_threshold_in_all_builds_nothing(monkeypatch):
    from sim import tiers

    plan = _plan(monkeypatch, None)
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: inputs)
    a = ("a" * 20, False)
    half = tiers.THRESHOLD // 2
    got = _sweep(plan, {"x": (a, half), "y": (a, tiers.THRESHOLD - half - 1)}, {"x": 3, "y": 3})
    assert got == {"x": [1, 1, 1], "y": [1, 1, 1]} and not plan.builds
    # one more trial makes the threshold: the structure is worth a build
    plan = _plan(monkeypatch, None)
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: inputs)
    plan.plan_all([("x", a, half), ("y", a, tiers.THRESHOLD - half)])
    assert plan.keys == {"x": "a" * 20, "y": "a" * 20}


def test_a_compiled_structure_counts_its_variants_against_the_warm_threshold(monkeypatch):
    from sim import tiers

    plan = _plan(monkeypatch, None)
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: inputs)
    a = ("a" * 20, True)
    plan.plan_all([("x", a, 600_000), ("y", a, 600_000)])  # 1.2 M >= the warm threshold (1 M)
    assert plan.tier("x", a) == 2 and plan.tier("y", a) == 2
    plan = _plan(monkeypatch, None)
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: inputs)
    plan.plan_all([("x", a, 400_000), ("y", a, 500_000)])
    assert plan.tier("x", a) == 1 and plan.tier("y", a) == 1


def test_a_dask_task_plays_tier2_only_where_its_worker_holds_the_build(monkeypatch):
    """:func:`sim.distributed.run_task`: asked for tier 2, a worker plays it when its own cache
    holds the structure's build, else the general engine (a task never compiles a build), and
    says which it played; the counters are the general engine's either way."""
    import numpy as np

    import sim
    from sim.distributed import run_task
    from sim.systems import mb41

    inp = _inputs(BUNDLED[0])
    key = np.uint64(11)
    want = mb41.simulate(inp, 0, 300, key)
    asked = []
    real = mb41.simulate

    def simulate(inputs, start, count, k, tier=1):
        asked.append(tier)
        return real(inputs, start, count, k)  # the build's counters are these (tested above)

    monkeypatch.setattr(mb41, "simulate", simulate)
    for compiled, played in ((False, 1), (True, 2)):
        monkeypatch.setattr(mb41, "tier2_key", lambda inputs, c=compiled: ("k" * 20, c))
        got, tier = run_task("mb41", inp, 0, 300, key, 1, sim.__version__, 2)
        assert tier == played and asked[-1] == played
        assert all(np.array_equal(got[k], want[k]) for k in want)
    got, tier = run_task("mb41", inp, 0, 300, key, 1, sim.__version__)  # not asked: the general engine
    assert tier == 1 and asked[-1] == 1
    got, tier = run_task("d10", _d10_inputs(), 0, 50, key, 1, sim.__version__, 2)  # no tier 2 in d10
    assert tier == 1


def _d10_inputs():
    from sim.scenario import load_scenario

    loaded = load_scenario(ROOT / "scenarios" / "d10" / "party-cake.yaml")
    return loaded.module.compile(loaded.variants[0][1])


class _FakeCluster:
    """Stands for :class:`sim.distributed.Cluster`: plays each variant's tasks here, through
    :func:`sim.distributed.run_task`, in tasks of ``size`` trials."""

    def __init__(self, size):
        self.size, self.asked = size, []

    def results(self, system, variants, goals, tiers=None, record=None):
        import sim
        from sim.distributed import run_task

        self.asked.append(list(tiers))
        for vi, (v, goal) in enumerate(zip(variants, goals)):
            for s in range(v.done, goal, self.size):
                c = min(self.size, goal - s)
                counters, played = run_task(system, v.inputs, s, c, v.key, 1, sim.__version__, tiers[vi])
                record(vi, played, c)
                yield (vi, s, c), counters

    def provenance(self):
        return {}

    def close(self):
        pass


def test_a_dask_run_asks_for_tier2_when_the_build_is_compiled_and_records_it(monkeypatch):
    """The runner asks a cluster's tasks for tier 2 when this machine's cache holds the structure's
    build (as joblib workers), and its provenance counts what the tasks played."""
    from sim import tiers
    from sim.runner import run_loaded
    from sim.scenario import load_scenario
    from sim.systems import mb41

    for k in (tiers.ENV, tiers.WARM_ENV):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv(tiers.WARM_ENV, "1000")
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: ("k" * 20, True))
    real = mb41.simulate
    monkeypatch.setattr(mb41, "simulate", lambda inputs, s, c, k, tier=1: real(inputs, s, c, k))
    loaded = load_scenario(BUNDLED[0])
    base = run_loaded(loaded, trials=3000, seed=4)
    for compiled, generated in ((True, 3000), (False, 0)):
        monkeypatch.setattr(mb41, "tier2_key", lambda inputs, c=compiled: ("k" * 20, c))
        cluster = _FakeCluster(1000)
        res = run_loaded(loaded, trials=3000, seed=4, backend=cluster)
        assert cluster.asked == [[2] * len(res.summary)]
        assert all(t == {"general": 3000 - generated, "generated": generated}
                   for t in res.provenance["tiers"].values())
        assert res.summary.equals(base.summary)


def test_warmup_compiles_each_structure_s_build_once(monkeypatch, capsys):
    """``sim warmup --tier2 SCENARIO`` (:func:`sim.warmup.warm_tier2`): one build per structure
    (the variants of a sweep over numbers share it), none for a duel the fast path plays or a
    system without tier 2, nothing for a build an earlier run compiled. The compile itself
    (:func:`sim.tiers.compile_now`) is tested above; here it is recorded, not played."""
    from sim import tiers
    from sim.warmup import warm_tier2

    compiled, built = set(), []
    real = tiers.structure_of

    def structure_of(system, inputs):
        found = real(system, inputs)
        return None if found is None else (found[0], found[0] in compiled)

    def compile_now(system, inputs):
        built.append(system)
        compiled.add(real(system, inputs)[0])

    monkeypatch.setattr(tiers, "structure_of", structure_of)
    monkeypatch.setattr(tiers, "compile_now", compile_now)
    sweep = ROOT / "scenarios" / "mb41" / "party-vs-boss.yaml"  # three variants over numbers: one structure
    rows = warm_tier2([sweep, ROOT / "scenarios" / "duel-basic.yaml", ROOT / "scenarios" / "cards" / "first-player.yaml"])
    party = [r for r in rows if r["scenario"] == str(sweep)]
    assert [r["status"] for r in party] == ["compiled"] + ["shared"] * (len(party) - 1) and len(party) >= 2
    assert len({r["key"] for r in party}) == 1 and built == ["mb41"]
    assert {r["status"] for r in rows if r["scenario"] != str(sweep)} == {"none"}
    err = capsys.readouterr().err
    assert "tier 2: compiling the build of" in err and "tier 2: none for" in err
    again = warm_tier2([sweep])
    assert [r["status"] for r in again][0] == "cached" and built == ["mb41"]
    assert "is compiled already" in capsys.readouterr().err


def test_a_build_compiles_at_its_own_llvm_level(monkeypatch):
    """A build's process gets ``NUMBA_OPT`` = :data:`sim.tiers.BUILD_OPT` (measured faster to
    compile and to play than numba's default for one all-inlined kernel); ``MGSIM_TIER2_OPT``
    overrides it, a value that is no level is ignored."""
    from sim import tiers

    monkeypatch.delenv(tiers.OPT_ENV, raising=False)
    monkeypatch.setenv("NUMBA_OPT", "3")
    assert tiers.BUILD_OPT == 2 and tiers.build_env()["NUMBA_OPT"] == "2"
    monkeypatch.setenv(tiers.OPT_ENV, "3")
    assert tiers.build_env()["NUMBA_OPT"] == "3"
    monkeypatch.setenv(tiers.OPT_ENV, "fast")
    assert tiers.build_env()["NUMBA_OPT"] == "2"


def test_warmup_says_when_a_build_fails(monkeypatch, capsys):
    """A build whose process fails: ``status`` ``failed`` with its last line, said on stderr, and
    ``sim warmup`` exits 1 (runs of the structure play the general engine)."""
    from sim import tiers
    from sim.warmup import warm_tier2

    def compile_now(system, inputs):
        raise RuntimeError("MemoryError: out of memory")

    real = tiers.structure_of
    monkeypatch.setattr(tiers, "structure_of", lambda system, inputs: (real(system, inputs) or ("x", False))[:1] + (False,))
    monkeypatch.setattr(tiers, "compile_now", compile_now)
    rows = warm_tier2([ROOT / "tests" / "data" / "tier2-small.yaml"])
    assert rows[0]["status"] == "failed" and rows[0]["error"] == "MemoryError: out of memory"
    assert "the build failed (MemoryError: out of memory)" in capsys.readouterr().err
