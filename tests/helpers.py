"""Test helpers: build mb41 scenarios from Python data (import as ``from helpers import ...``)."""
from __future__ import annotations

import copy
import os

import yaml

os.environ.setdefault("SIM_DEBUG", "")

from sim.scenario import load_scenario_text  # noqa: E402

DUEL = {
    "name": "duel-basic",
    "system": "mb41",
    "seed": 7,
    "trials": 100000,
    "rules": {"grid": "none", "revive": False, "initiative": "listed"},
    "sides": [
        {"name": "girls", "members": [
            {"name": "Akari", "attack": 4, "defence": 4, "support": 3, "resolve": 18,
             "attack_kind": "melee", "policy": {"boost": "never"}}]},
        {"name": "youma", "members": [
            {"name": "Shade", "attack": 3, "defence": 3, "support": 3, "resolve": 18,
             "attack_kind": "melee", "policy": {"boost": "never"}}]},
    ],
}


def ctrl_c_reaches_it() -> None:
    """``preexec_fn`` of a child a test stops with Ctrl-C (SIGINT): the child starts with SIGINT's
    default disposition, so Python turns it into ``KeyboardInterrupt``. A child inherits an
    ignored SIGINT: a shell starting a job in the background (``.ci/run &``) ignores it, and the
    child would then never see the test's Ctrl-C."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def duel_data(**changes) -> dict:
    """The issue's duel with changes: keys 'rules', 'a', 'b' (member fields) or top-level."""
    d = copy.deepcopy(DUEL)
    for k, v in changes.items():
        if k == "rules":
            d["rules"].update(v)
        elif k in ("a", "b"):
            d["sides"][0 if k == "a" else 1]["members"][0].update(v)
        else:
            d[k] = v
    return d


def load_data(data: dict):
    return load_scenario_text(yaml.safe_dump(data, sort_keys=False), "<test>")



# ---------------------------------------------------------------- mb41 kernel harness
# (scripted-dice tests: tests/test_mb41_scripted.py, tests/test_mb41_properties.py)


def mb41_member(name: str, **fields) -> dict:
    """A member dict with the duel's defaults (stats 3/3/3, Resolve 18, melee, no Boost)."""
    m = {"name": name, "attack": 3, "defence": 3, "support": 3, "resolve": 18,
         "attack_kind": "melee", "policy": {"boost": "never"}}
    m.update(fields)
    for k in [k for k, v in m.items() if v is None]:
        del m[k]
    if "heart" in m:  # stats given as heart/fury/judgment: drop the by-role defaults
        for k in ("attack", "defence", "support"):
            if k not in fields:
                m.pop(k, None)
    return m


def mb41_data(side_a, side_b, rules=None, **top) -> dict:
    """A scenario dict with two sides of member dicts; rules default to listed initiative, no revive."""
    r = {"grid": "none", "revive": False, "initiative": "listed"}
    r.update(rules or {})
    d = {"name": "scripted", "system": "mb41", "seed": 1, "trials": 1000, "rules": r,
         "sides": [{"name": "girls", "members": list(side_a)},
                   {"name": "foes", "members": list(side_b)}]}
    d.update(top)
    return d


def mb41_inputs(data: dict):
    """Compile a scenario dict to kernel inputs (``.comb``, ``.pol``, ``.rules``)."""
    from sim.systems import mb41

    return mb41.compile(load_data(data).base)


def mb41_state(inputs):
    """Fresh ``(dyn, cc)`` after ``reset``: one buffer (counters ``K_*`` and state ``D_*``),
    returned twice so that tests may read counters as ``cc[i, K.K_...]``."""
    import numpy as np

    from engine41 import K

    dyn = np.zeros((inputs.n, K.NDYN), dtype=np.int64)
    mb41_call(K.reset, comb=inputs.comb, rules=inputs.rules, dyn=dyn)
    return dyn, dyn


class Script:
    """Four scripted random streams (rows ``S_SETUP, S_CHECK, S_DAMAGE, S_POLICY``).

    Arguments are lists of 0-based values (``randbelow`` results); use
    :func:`faces` to write d6 faces. ``assert_consumed()`` checks that every
    stream drew exactly its script: no more (the padding of shorter rows is
    not mistaken for dice), no fewer, and no value out of range.
    """

    def __init__(self, check=(), damage=(), setup=(), policy=()):
        import numpy as np

        from sim.rng import scripted_state
        from engine41 import K

        by = {K.S_SETUP: list(setup), K.S_CHECK: list(check), K.S_DAMAGE: list(damage),
              K.S_POLICY: list(policy)}
        w = 8 + max(len(v) for v in by.values()) + 8
        self.lengths = {p: len(v) for p, v in by.items()}
        self.streams = np.zeros((K.NS, w), dtype=np.uint64)
        for p, v in by.items():
            self.streams[p] = scripted_state(v, width=w)

    def used(self, purpose: int) -> int:
        from sim.rng import script_used

        return script_used(self.streams[purpose])

    def assert_consumed(self) -> None:
        from sim.rng import check_script
        from engine41 import K

        names = {K.S_SETUP: "setup", K.S_CHECK: "check", K.S_DAMAGE: "damage", K.S_POLICY: "policy"}
        for p, n in self.lengths.items():
            check_script(self.streams[p], consumed_all=False)
            got = self.used(p)
            assert got == n, f"{names[p]} stream: drew {got} values, script has {n}"


def faces(*dice) -> list[int]:
    """d6 faces (1..6) to 0-based scripted values: ``faces(6, 3, 2)``."""
    from sim.rng import dice_script

    return dice_script(dice)


def mb41_fight(inputs, dyn, streams, cc):
    """Call ``kernel.fight`` on ``inputs``/``dyn``/``streams``/``cc``; returns ``(outcome, rounds)``.

    The arguments are matched to ``fight``'s parameters by name, so a
    reordered signature still works; an unknown new parameter fails loudly.
    """
    import inspect

    import numpy as np

    from engine41 import K

    n, cap = inputs.n, inputs.round_cap
    scratch = np.zeros(n, dtype=np.int64)
    from sim.systems.mb41 import world
    from sim.systems.mb41.world import no_field

    bf = no_field()
    buf = world.new_buffer()
    pool = dict(comb=inputs.comb, pol=inputs.pol, rules=inputs.rules, dyn=dyn, bf=bf,
                w=world.pack(inputs.comb, inputs.rules, dyn, streams, bf, buf),
                order=np.zeros(n, dtype=np.int64), key=scratch, ikey=scratch, streams=streams, cc=cc,
                side_curve=np.zeros((2, 2, cap + 1), dtype=np.int64),
                comb_curve=np.zeros((n, 2, cap + 1), dtype=np.int64))
    params = list(inspect.signature(getattr(K.fight, "py_func", K.fight)).parameters)
    missing = [p for p in params if p not in pool]
    if missing:
        raise TypeError(f"kernel.fight has parameters {missing} unknown to tests/helpers.py mb41_fight")
    outcome, rounds = K.fight(*[pool[p] for p in params])
    return int(outcome), int(rounds)


def mb41_call(fn, **args):
    """Call a numba kernel with its arguments matched by parameter name (robust to
    reordering); an unknown parameter fails with a clear message. ``bf`` None (or
    not given) is the battlefield of a fight without a grid (:func:`.world.no_field`)."""
    import inspect

    from sim.systems.mb41.world import no_field

    if args.get("bf") is None:
        args["bf"] = no_field()
    params = list(inspect.signature(getattr(fn, "py_func", fn)).parameters)
    if "streams" not in args:
        args["streams"] = Script().streams  # no dice: a function that draws none here
    if "w" in params and "w" not in args:
        # the rules' functions take the fight's arrays as one world (sim/systems/mb41/world.py)
        from sim.systems.mb41 import world

        need = [k for k in ("comb", "rules", "dyn") if k not in args]
        if need:
            raise TypeError(f"{fn.__name__} takes the world: the test must supply {need}")
        buf = world.new_buffer()
        args["w"] = world.pack(args["comb"], args["rules"], args["dyn"], args["streams"], args["bf"], buf)
        args["_keep"] = buf  # alive until the call returns

    missing = [p for p in params if p not in args]
    if missing:
        raise TypeError(f"{fn.__name__} has parameters {missing} that the test does not supply")
    return fn(*[args[p] for p in params])


#: a policy that never boosts and takes any overcharge (scripted 4.1 tests)
MB41_NOCAP = {"boost": "never", "overcharge_cap": 99}


def mb41_girl(name: str = "Akari", **fields) -> dict:
    """A girl 4/4/3 (attack/defence/support), Resolve 18, no Boost, no overcharge cap."""
    m = {"attack": 4, "defence": 4, "support": 3, "policy": dict(MB41_NOCAP)}
    m.update(fields)
    return mb41_member(name, **m)


def mb41_boss(name: str = "Boss", **fields) -> dict:
    """A monster 3/3/3 with 40 Resolve, damage bonus 0 and an overcharge pool of 10."""
    m = {"kind": "monster", "resolve": 40, "damage_bonus": 0, "overcharge_pool": 10}
    m.update(fields)
    return mb41_member(name, **m)


def mb41_setup(side_a, side_b, rules=None):
    """Compile two sides of member dicts; returns ``(inputs, dyn, cc)`` after ``reset``."""
    inp = mb41_inputs(mb41_data(side_a, side_b, rules))
    dyn, cc = mb41_state(inp)
    return inp, dyn, cc


def mb41_run(fn, inp, dyn, cc, script, check=True, **args):
    """Call kernel ``fn`` on ``inp``'s arrays, ``dyn``, ``cc`` and ``script``'s
    streams (gridless: ``bf`` None unless given), then check that the script
    was drawn exactly (``check``)."""
    full = dict(comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn, streams=script.streams, cc=cc, bf=None)
    full.update(args)
    out = mb41_call(fn, **full)
    if check:
        script.assert_consumed()
    return out


# ---------------------------------------------------------------- the 4.1 hex battlefield


def grid_arena(girls, foes, rules=None, battlefield=None):
    """Compile a hex-grid fight (8 x 8 unless ``battlefield`` is given), reset
    and deploy it; returns ``(inp, dyn, cc, bf)``."""
    from engine41 import BG

    data = mb41_data(girls, foes, rules={"grid": "hex", **(rules or {})})
    data["battlefield"] = battlefield or {"width": 8, "height": 8}
    inp = mb41_inputs(data)
    dyn, cc = mb41_state(inp)
    bf = BG.make_bf(inp.battlefield)
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)
    return inp, dyn, cc, bf


def grid_put(inp, dyn, bf, i, col, row):
    """Move combatant ``i`` to ``[col, row]`` and rebuild the occupancy."""
    from engine41 import BG
    from engine41 import K

    dyn[i, K.D_POS] = inp.battlefield.cell_offset(col, row)
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)


def grid_where(inp, dyn, i):
    """``[col, row]`` of combatant ``i``."""
    from sim.systems.mb41 import grid as G
    from engine41 import K

    return list(G.axial_to_offset(*inp.battlefield.coords(int(dyn[i, K.D_POS]))))


def grid_apart(inp, dyn, i, j):
    """Hexes between combatants ``i`` and ``j``."""
    from engine41 import K

    return inp.battlefield.distance(int(dyn[i, K.D_POS]), int(dyn[j, K.D_POS]))


def grid_run(fn, inp, dyn, cc, bf, script=None, **kw):
    """Call kernel ``fn`` on the battlefield ``bf``; the script (default none) must be drawn exactly."""
    s = script or Script()
    out = mb41_call(fn, comb=inp.comb, pol=inp.pol, rules=inp.rules, dyn=dyn, streams=s.streams, cc=cc, bf=bf, **kw)
    s.assert_consumed()
    return out


def grid_turn(inp, dyn, cc, bf, i, **script):
    """One grid turn of ``i`` with the scripted streams ``script`` (check=..., damage=...)."""
    from engine41 import K

    grid_run(K.take_turn, inp, dyn, cc, bf, Script(**script), i=i)


def draft_arena(side_a, side_b, rules=None, places=None):
    """Compile an ``mb-draft`` fight from member dicts and reset it; returns
    ``(inp, dyn, cc)``. With rule ``positions`` > 0 everyone is put on her
    starting position, or on ``places`` (0-based, one per listed member)."""
    import numpy as np

    from engine41 import K
    from sim.systems.mb41 import positions as PS

    data = mb41_data(side_a, side_b, rules)
    data["system"] = "mb-draft"
    loaded = load_data(data)
    inp = loaded.module.compile(loaded.base)
    dyn = np.zeros((inp.n, K.NDYN), dtype=np.int64)
    cc = dyn  # one buffer: counters K_* and state D_*
    mb41_call(K.reset, comb=inp.comb, rules=inp.rules, dyn=dyn)
    if (rules or {}).get("positions", 0) > 0:
        mb41_call(PS.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn)
    if places is not None:
        for i, p in enumerate(places):
            dyn[i, K.D_PLACE] = p
    return inp, dyn, cc


#: a policy that never Boosts, never moves on its own and has no overcharge cap (scripted grid turns)
HOLD = {"boost": "never", "movement": "hold", "overcharge_cap": 99}


def hold_girl(name="Akari", talents=(), policy=None, **kw) -> dict:
    """A girl 4/4/3 with the :data:`HOLD` policy (``policy`` entries override it)."""
    pol = dict(HOLD)
    pol.update(policy or {})
    return mb41_member(name, attack=4, defence=4, support=3, talents=list(talents), policy=pol, **kw)


def hold_foe(name="Shade", talents=(), policy=None, **kw) -> dict:
    """A monster 3/3/3, Resolve 18, damage bonus 0, pool 5, with the :data:`HOLD` policy."""
    pol = dict(HOLD)
    pol.update(policy or {})
    return mb41_member(name, kind="monster", resolve=18, damage_bonus=0, overcharge_pool=5,
                       talents=list(talents), policy=pol, **kw)


def grid_place(inp, dyn, bf, cells):
    """Put every combatant ``i`` on ``cells[i]`` (``[col, row]``) at once."""
    from engine41 import BG
    from engine41 import K

    for i, (c, r) in enumerate(cells):
        dyn[i, K.D_POS] = inp.battlefield.cell_offset(c, r)
    mb41_call(BG.place_all, comb=inp.comb, rules=inp.rules, dyn=dyn, bf=bf)


def run_python(code: str, args, root=None, jit: bool = False, timeout: int = 900, env=None) -> dict:
    """Run ``code`` in a fresh Python (``python -c code args...``) with ``root`` first on its
    path (default: this checkout), uncompiled (``NUMBA_DISABLE_JIT``) unless ``jit``, sharing
    this process's numba cache, with ``env`` added to its environment; the JSON object on its
    last line of output."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from numba.core import config

    root = Path(root) if root is not None else Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root), MGSIM_COMPILE_HELPER="0", **(env or {}))
    if config.CACHE_DIR:
        env["NUMBA_CACHE_DIR"] = config.CACHE_DIR
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    p = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, env=env,
                       cwd=root, timeout=timeout)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])
