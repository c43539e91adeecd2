"""Every timing point of the 4.1 engine calls every hook registered at it
(sim/systems/mb41/hooks.py, points.py), and a new mechanic added by the recipe
of docs/engine.md section 6 plays in a compiled fight.

* Every hook of the table is called in some fight of ``tests/data/mb41-hooks``
  (uncompiled, in a subprocess: every procedure call is seen), so a hook that is
  registered and never called fails here.
* A second hook registered at every timing point (before the others, opening
  whenever the first one does) fires beside them, and changes nothing (it
  returns what its point passes on).
* A new mechanic with a DECLARE hook and a REDUCE hook, added as section 6 says
  (its catalog row, its code, its talent module, two rows in the hook table)
  to a copy of the package, fires in a compiled fight; only what names the
  changed tables recompiles (sim/cache.py).
"""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from helpers import run_python

ROOT = Path(__file__).resolve().parents[1]
HOOK_FIGHTS = sorted(str(p) for p in (ROOT / "tests" / "data" / "mb41-hooks").glob("*.yaml"))

#: runs in the subprocess: which hooks a set of fights calls (uncompiled)
SEEN = textwrap.dedent('''
    import json, sys
    import numpy as np
    from sim import procs, rng
    from sim.scenario import load_scenario
    from sim.systems.mb41 import hooks, registry, state, world
    from sim.systems.mb41.compile import derive
    from sim.systems.mb41.layout import C_TCODE, C_TMASK, C_TP1, D_ABSENT

    seen = {}
    names = {getattr(registry.hook_function(h), "py_func", registry.hook_function(h)): f"{h.timing}/{h.name}"
             for h in hooks.HOOKS}
    index = procs._python_index

    def spy(fn):
        k = index(fn)
        tag = names.get(getattr(fn, "py_func", fn))
        if tag is not None and not hasattr(procs._PY[k], "tag"):
            inner = procs._PY[k]
            def wrapped(*args):
                seen[tag] = seen.get(tag, 0) + 1
                return inner(*args)
            wrapped.tag = tag
            procs._PY[k] = wrapped
        return k

    procs._python_index = spy
    counters = {}
    for path in sys.argv[2:]:
        loaded = load_scenario(path)
        inp = loaded.module.compile(loaded.base)
        out = loaded.module.simulate(inp, 0, int(sys.argv[1]), rng.stream_key(loaded.base.seed, 0), fast=False)
        counters[path] = np.asarray(out["combatants"]).tolist()
    # APPEAR: no scenario's reserve rows hold a Fear Aura; a minion made to hold one appears
    loaded = load_scenario(sys.argv[3])
    inp = loaded.module.compile(loaded.base)
    comb = inp.comb.copy()
    j = int(np.flatnonzero(comb[:, C_TCODE] == 0)[0])
    comb[j, C_TCODE], comb[j, C_TP1] = hooks.E.E_FEAR_AURA, 1
    comb[j, C_TMASK] |= 1 << hooks.E.E_FEAR_AURA
    derive(comb)
    rules = registry.live_rules(comb, inp.rule_table)
    dyn = np.zeros((inp.n, world.NDYN), dtype=np.int64)
    w = world.pack(comb, rules, dyn, np.zeros((4, 16), dtype=np.uint64), world.no_field(), world.new_buffer())
    state.reset(w)
    dyn[j, D_ABSENT] = 1
    state.appear(j, 0, w)
    print(json.dumps({"seen": seen, "counters": counters}))
''')


def _copy(tmp_path: Path) -> Path:
    """A copy of the package under ``tmp_path`` that a subprocess imports instead of the
    checkout's (``sitecustomize`` drops an editable install's finder)."""
    dst = tmp_path / "pkg"
    shutil.copytree(ROOT / "sim", dst / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    (dst / "sitecustomize.py").write_text(
        "import sys\nsys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]\n")
    return dst


def _run(code: str, args, root: Path = ROOT, jit: bool = False, timeout: int = 900) -> dict:
    return run_python(code, args, root=root, jit=jit, timeout=timeout)


def test_every_registered_hook_is_called():
    from sim.systems.mb41 import hooks

    out = _run(SEEN, [30, *HOOK_FIGHTS])
    never = [f"{h.timing}/{h.name}" for h in hooks.HOOKS if f"{h.timing}/{h.name}" not in out["seen"]]
    assert never == [], f"registered hooks no fight calls: {never}"


PROBE = '''"""Test-only: a second hook at every timing point (tests/test_mb41_hooks.py)."""
from sim._jit import kernel

CALLS = []

'''


def _add_probes(pkg: Path) -> None:
    """Register, first at every timing point, a probe that opens whenever the point's first hook
    does and returns what its point passes on (so that the hooks after it are still asked,
    even at a point whose first nonzero return ends it)."""
    from sim.systems.mb41 import hooks

    src = PROBE
    rows = []
    for t in hooks.TIMING_POINTS:
        first = hooks.at(t.name)[0]
        back = "c" if t.combine == "chain" else "0"
        src += (f"\n\n@kernel\ndef h_probe_{t.name.lower()}(a, b, c, w):\n"
                f"    CALLS.append('{t.name}')\n    return {back}\n")
        rows.append(f"    Hook({t.name!r}, 'probe_{t.name.lower()}', {first.codes!r}, {first.scope!r}, "
                    f"{first.armed!r}, {first.always!r}),\n")
    (pkg / "sim" / "systems" / "mb41" / "talents" / "probe.py").write_text(src)
    table = pkg / "sim" / "systems" / "mb41" / "hooks.py"
    text = table.read_text()
    head, tail = text.split("HOOKS: tuple[Hook, ...] = (\n", 1)
    body, rest = tail.split("\n)\n", 1)
    table.write_text(head + "HOOKS: tuple[Hook, ...] = (\n" + "".join(rows) + body + "\n)\n" + rest)


def test_two_hooks_at_every_timing_point_both_fire(tmp_path):
    """A probe registered beside the hooks of every timing point is called where the first
    hook of that point is, and the fights' counters are the same as without it."""
    from sim.systems.mb41 import hooks

    pkg = _copy(tmp_path)
    _add_probes(pkg)
    code = SEEN.replace("print(json.dumps(", "from sim.systems.mb41.talents import probe\n"
                        "seen['probes'] = sorted(set(probe.CALLS))\nprint(json.dumps(")
    out = _run(code, [30, *HOOK_FIGHTS], root=pkg)
    plain = _run(SEEN, [30, *HOOK_FIGHTS])
    assert out["counters"] == plain["counters"]  # the probes change nothing
    for t in hooks.TIMINGS:
        firsts = [k for k in out["seen"] if k.startswith(f"{t}/") and "probe" not in k]
        assert firsts, f"{t}: no hook of it was called"
        assert t in out["seen"]["probes"], f"{t}: its second hook was never called"


RECIPE_ROW = """
- name: Probe Talent
  audit_row: 999
  name_source: inferred
  group: common
  action: free
  range: self
  effect: "test-only (tests/test_mb41_hooks.py): +P1 to her attacks, -P2 damage on every hit she takes"
  matters_in_fight: true
  simulated: true
  mechanic: {code: probe, attack: 2, reduce: 1}
  source: "L0 (none: a test-only row)"
"""

RECIPE_MODULE = '''"""Test-only mechanic ``probe`` (tests/test_mb41_hooks.py): +P1 to her attacks, -P2 on her hits."""
from __future__ import annotations

from sim._jit import kernel

from ..codes import *  # noqa: F401,F403
from ..layout import *  # noqa: F401,F403
from ..world import unpack


@kernel
def h_probe_declare(i, t, c, w):
    """DECLARE: +P1 to her attack."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[i, C_TCODE + s] == E_PROBE:
            dyn[i, D_ATK_BONUS] += comb[i, C_TP1 + s]
            dyn[i, K_TUSE + s] += 1
    return 0


@kernel
def h_probe_reduce(t, i, dmg, w):
    """REDUCE: -P2 on a hit she takes."""
    comb, rules, dyn, streams, bf = unpack(w)
    for s in range(MAXT):
        if comb[t, C_TCODE + s] == E_PROBE:
            cut = comb[t, C_TP2 + s] if dmg > comb[t, C_TP2 + s] else dmg
            dyn[t, K_PREVENTED] += cut
            dmg -= cut
    return dmg
'''

RECIPE_FIGHT = textwrap.dedent('''
    import json, sys
    from sim import rng
    import yaml
    from sim.scenario import load_scenario_text
    from sim.systems.mb41.layout import K_PREVENTED, K_TUSE
    data = {"name": "probe", "system": "mb41", "seed": 5, "trials": 200, "rules": {"revive": False},
            "sides": [{"name": "girls", "members": [{"name": "Pia", "attack": 4, "defence": 4, "support": 3,
                                                      "talents": ["Boost", "Probe Talent"]}]},
                      {"name": "foes", "members": [{"name": "Brute", "kind": "monster", "attack": 6,
                                                     "defence": 4, "support": 3, "resolve": 30}]}]}
    loaded = load_scenario_text(yaml.safe_dump(data, sort_keys=False), "<probe>")
    inp = loaded.module.compile(loaded.base)
    out = loaded.module.simulate(inp, 0, 200, rng.stream_key(5, 0), fast=False)
    c = out["combatants"]
    from sim.systems.mb41.codes import E_PROBE
    from sim.systems.mb41.layout import C_TCODE, MAXT
    slot = list(inp.comb[0, C_TCODE:C_TCODE + MAXT]).index(E_PROBE)  # Boost has no talent slot
    print(json.dumps({"uses": int(c[0, K_TUSE + slot]), "prevented": int(c[0, K_PREVENTED])}))
''')


@pytest.mark.slow
def test_a_new_mechanic_by_the_recipe_fires_in_a_compiled_fight(tmp_path):
    """docs/engine.md section 6 followed on a copy of the package: a catalog row, an effect
    code and its mechanic, a talent module with a DECLARE and a REDUCE hook, their two rows
    in the hook table. No existing function changes; the compiled fight plays both hooks."""
    pkg = _copy(tmp_path)
    mb = pkg / "sim" / "systems" / "mb41"
    used = {v for k, v in vars(__import__("sim.systems.mb41.codes", fromlist=["x"])).items() if k.startswith("E_")}
    code = next(c for c in range(64, 126) if c not in used)
    with open(mb / "codes.py", "a") as f:
        f.write(f"\nE_PROBE = {code}           # test-only (tests/test_mb41_hooks.py)\n")
    init = mb / "talents" / "__init__.py"
    text = init.read_text()
    assert "MECHANICS = {" in text
    init.write_text(text.replace("MECHANICS = {", 'MECHANICS = {\n    "probe": (E.E_PROBE, ("attack", "reduce")),', 1))
    with open(mb / "catalog" / "talents.yaml", "a") as f:
        f.write(RECIPE_ROW)
    (mb / "talents" / "probe.py").write_text(RECIPE_MODULE)
    table = mb / "hooks.py"
    text = table.read_text()
    text = text.replace('    Hook("DECLARE", "belkan",', '    Hook("DECLARE", "probe_declare", (E.E_PROBE,)),\n    Hook("DECLARE", "belkan",')
    text = text.replace('    Hook("LAND", "drain",', '    Hook("REDUCE", "probe_reduce", (E.E_PROBE,)),\n    Hook("LAND", "drain",')
    table.write_text(text)
    out = _run(RECIPE_FIGHT, [], root=pkg, jit=True, timeout=1800)
    assert out["uses"] > 0, "the DECLARE hook never fired"
    assert out["prevented"] > 0, "the REDUCE hook never fired"
