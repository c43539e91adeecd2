"""d10 powers as slots with hooks (issue 34): the registry in sim/systems/d10/hooks.py
is what the kernel does.

- every timing point's dispatcher (``<timing>_hooks`` in powers.py) calls exactly
  its registered hooks, in the table's order, and no hook is left unregistered;
- every registered hook acts in a fight (the kernel's own functions replayed in
  Python, :func:`sim.systems.d10.game_log.python_kernel`): its mechanic is in the
  acting combatant's slots when it is called;
- slots: sorted by code, the mask has a bit per slot, a copy keeps her perks and
  not her powers (D23 reading).
"""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from sim import rng
from sim.systems.d10 import codes, hooks
from sim.systems.d10 import kernel as K
from sim.systems.d10.compile import slots_of
from sim.systems.d10.game_log import python_kernel
from sim.systems.d10.testing import inputs, member, scenario

POWERS = Path(__file__).resolve().parents[1] / "sim" / "systems" / "d10" / "powers.py"


def _calls_in_order(fn: ast.FunctionDef) -> list[str]:
    calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    calls.sort(key=lambda n: (n.lineno, n.col_offset))
    return [n.func.id for n in calls if n.func.id.startswith("h_")]


def test_every_dispatcher_calls_its_registered_hooks_in_order():
    tree = ast.parse(POWERS.read_text())
    fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for timing in hooks.TIMINGS:
        name = f"{timing.lower()}_hooks"
        assert name in fns, f"no dispatcher {name} for timing {timing}"
        assert _calls_in_order(fns[name]) == [f"h_{h.name}" for h in hooks.at(timing)], timing
    defined = {n for n in fns if n.startswith("h_")}
    assert defined == {f"h_{h.name}" for h in hooks.HOOKS}, "a hook is defined but not registered (or the reverse)"
    for h in hooks.HOOKS:
        assert hooks.gate(h.timing) & (1 << h.code)


def test_the_dispatcher_check_can_fail():
    src = "def x_hooks(a):\n    h_b(a)\n    h_a(a)\n"
    assert _calls_in_order(ast.parse(src).body[0]) == ["h_b", "h_a"]


def _party():
    spell = {"attack_kind": "specialization", "specialization": {"effect": "penalty", "area": True, "allies_caught": 1}}
    girls = [
        member("Ann", attack_kind="mystic", abilities={"magic": 10}, powers=["Duplication", "Regeneration"],
               perks=["Awareness", "Blood Magic", "Mystic Artifact"], policy={"preset": "cautious"}),
        member("Bea", abilities={"magic": 10, "vitality": 3}, powers=["Third Eye"], perks=["Disguise Artifact"],
               policy={"preset": "support", "hide_at": 1}),
        member("Cat", abilities={"magic": 12}, powers=["Power of Friendship"], policy={"preset": "aggressive"},
               **spell),
        member("Dee", abilities={"strength": 10}, second_form="ranged", powers=["Familiar", "Killing Blow",
               "Focused Assault", "Barrage"], perks=["Dual Weapon"], policy={"preset": "balanced", "targets": 2},
               familiar={"perk": "perfect_assistant", "policy": {"preset": "support"}}),
        member("Eve", abilities={"magic": 12}, powers=["Hammerspace", "Third Eye"], perks=["Healing Artifact"],
               policy={"preset": "balanced"}),
    ]
    foes = [member("Orc", kind="monster_girl", abilities={"strength": 10, "magic": 12, "vitality": 10},
                   powers=["Tentacles", "Third Eye"], policy={"preset": "aggressive", "grapple": "grapple"}),
            member("Imp", kind="monster_girl", attack_kind="ranged", policy={"preset": "balanced"}),
            member("Elf", kind="dark_magical_girl", attack_kind="specialization", abilities={"magic": 10},
                   policy={"preset": "balanced", "target": "random"})]
    return inputs(scenario(girls, foes, {"mode": "cake", "initiative": "roll", "fights_per_episode": 2}))


def test_every_registered_hook_acts_in_a_fight():
    """Each hook is called with its mechanic in the actor's slots (the hook's ``has_power``
    test comes out true) in 30 trials of a party holding every mechanic."""
    inp = _party()
    names = [f"h_{h.name}" for h in hooks.HOOKS]
    stack: list[str] = []
    acted: set[tuple[str, int]] = set()

    def wrap(name, fn):
        if name == "has_power":
            def has(comb, i, code):
                r = fn(comb, i, code)
                if r and stack:
                    acted.add((stack[-1], int(code)))
                return r
            return has

        def hook(*args):
            stack.append(name)
            try:
                return fn(*args)
            finally:
                stack.pop()
        return hook

    PK = python_kernel(wrap, names=names + ["has_power"])
    n, cap = inp.n, inp.round_cap
    key = rng.stream_key(3, 0)
    for trial in range(30):
        dyn = np.zeros((n, K.ND), dtype=np.int64)
        cc = np.zeros((n, K.NK), dtype=np.int64)
        streams = np.zeros((K.NS, rng.STATE_WORDS), dtype=np.uint64)
        for p in range(K.NS):
            rng.seed_stream(streams[p], key, np.int64(trial), p)
        PK.campaign(inp.comb, inp.pol, inp.rules, inp.tab, dyn, np.zeros(n, np.int64), np.zeros(n, np.int64),
                    streams, cc, np.zeros((2, 2, cap + 1), np.int64), np.zeros((n, 2, cap + 1), np.int64),
                    np.zeros(1, np.int64), inp.plain)
    missing = [f"{h.timing} h_{h.name}" for h in hooks.HOOKS if (f"h_{h.name}", h.code) not in acted]
    assert missing == []


def test_one_slot_per_mechanic_a_mask_and_copies_keep_only_perks():
    inp = inputs(scenario([member("Ann", powers=["Regeneration", "Killing Blow", "Duplication"],
                                  perks=["Blood Magic", "Awareness"], duplicates=1)], [member("Bea")]))
    row = inp.comb[0]
    have = ("regeneration", "killing_blow", "duplication", "blood_magic", "initiative_tens")
    assert int(row[K.C_PMASK]) == sum(1 << codes.CODE[m] for m in have)
    assert slots_of(row)["killing_blow"] == [3, 2, 2] and slots_of(row)["regeneration"] == [1, 1, 3]
    kb = K.E_KILLING_BLOW
    assert [int(row[K.C_PNUM + k * K.MAXP + kb - 1]) for k in range(K.NNUM)] == [3, 2, 2]
    assert int(row[K.C_PNUM + K.E_BARRAGE - 1]) == 0  # a slot she does not use
    copy = inp.comb[1]
    assert inp.kinds[1] == "copy"
    assert set(slots_of(copy)) == {"blood_magic", "initiative_tens"}
    assert all(codes.MECHANICS[codes.CODE[m] - 1].perk for m in slots_of(copy))
