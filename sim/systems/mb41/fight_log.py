"""A readable log of one seeded 4.1 / draft trial (``sim play FILE --seed S [--trial N] [--json]``).

The log is trial ``N`` of ``sim run FILE --seed S`` (its streams keyed as the
runner keys the variant's, :func:`sim.runner._make_variants`), played by the
engine's own functions run as plain Python (:class:`.replay.Engine`: every
kernel's ``py_func`` re-bound into private copies of the engine's modules, the
hook and geometry procedures called through the same table). The log observes
that code through thin wrappers (:mod:`.fight_log_hooks`) that return what the
wrapped function returns and draw nothing, so the trial is the one the compiled
kernel plays: ``tests/test_mb41_play.py`` checks every array the block kernel
fills (outcome, rounds, curves, every counter of every combatant) against the
compiled run of the same trial, gridless, on the draft's positions, on the hex
grid and for an episode. Nothing is compiled for a log (the table holds the
copies' indices, not machine addresses).

Events: each is a dict ``{"event": kind, "depth": d, "text": line, ...}`` (fields
per kind in docs/cli.md); ``--json`` prints one a line, the text log their ``text``
indented by ``depth``.
"""
from __future__ import annotations

import json

import numpy as np

from sim import rng

from . import layout as L
from . import hooks as H
from .compile import compile as compile_scenario
from .fight_log_hooks import AILMENTS, DICE, STATS, Observers, dice_text
from .replay import Engine

#: engine functions observed by name (``Observers._h_<name>``); every talent hook ``h_*`` and
#: every dice function of :data:`.fight_log_hooks.DICE` too
WRAPPED = ("fight_on", "roll_initiative", "next_scene", "turn_of", "move_to", "attack", "roll_attack",
           "roll_defence", "damage_dice", "_spend_boost", "contest", "hit_damage", "intercept", "_damage",
           "dropped", "revive_roll", "_heal", "give_ailment", "gain_overcharge", "play_burst", "removal_roll", "bleed",
           "play_frenzied", "retaliate", "round_start", "round_end", "fight_start", "fury_spend", "judgment_blast")
#: counters in the closing summary (all of them are in the JSON ``summary`` event)
SUMMARY = (("K_ATTACKS", "attacks"), ("K_HITS", "hits"), ("K_DEALT", "dealt"), ("K_TAKEN", "taken"),
           ("K_KOS", "KOs"), ("K_REVIVES", "revive rolls"), ("K_DEATHS", "deaths"), ("K_BOOSTS", "boosts"),
           ("K_INTERCEPTS", "intercepts"), ("K_HEALED", "healed"), ("K_AILED", "ailments"), ("K_MOVES", "hexes moved"),
           ("K_PLACES", "positions moved"))
COUNTER_NAMES = {L.COUNTERS.constants()["K_" + f.name] + k: f.name.lower() + (f"_{k}" if f.width > 1 else "")
                 for f in L.COUNTERS.fields for k in range(f.width)}


class Trial(Observers):
    """One trial of a compiled scenario (``inputs``) played by the Python engine, with its
    events (``events``) and the block kernel's arrays for it (``raw``, as
    ``sim.systems.mb41._play_fight`` / ``_play_episode`` return them for one trial)."""

    def __init__(self, inputs, key, trial: int = 0):
        self.inp = inputs
        self.key = np.uint64(key)
        self.trial = int(trial)
        self.events: list[dict] = []
        self.side_names = inputs.side_names
        ep = inputs.episode
        self.scene_names = list(ep.scene_names) if ep is not None else []
        self.combine = {"h_" + h.name: t.combine for t in H.TIMING_POINTS for h in H.at(t.name)}
        self.fight_no = 0
        self.round = 0
        self.rolled: list = []
        self.last_faces: list = []
        self._draws: list = []
        self._dice_depth = 0
        self._dmg_faces: list = []
        self._combined = None
        self.logged_pos: dict = {}
        self.placed = False  # the draft's positions are set by fight_start
        self._base = None
        self.E = Engine(self._wrap)
        for name in ("randbelow", "randbelow_inline"):  # each die drawn (sim.rng stays compiled)
            for ns in self.E.ns.values():
                if name in ns:
                    ns[name] = self._drawer(ns[name])

    def _drawer(self, fn):
        def drawn(state, n):
            return self._draw(fn, state, n)
        return drawn

    def _wrap(self, name, fn):
        if name in DICE:
            def dice(*args):
                return self._dice(name, fn, args)
            return dice
        if name.startswith("h_") and name in self.combine:
            def hooked(*args):
                return self.hook(name, fn, args)
            return hooked
        if name not in WRAPPED:
            return fn
        obs = getattr(self, "_h_" + name)

        def wrapped(*args):
            return obs(fn, *args)
        return wrapped

    # ------------------------------------------------------------ running
    def run(self) -> "Trial":
        """Play the trial (the general kernel: a duel's fast path gives the same counters)."""
        import sim.systems.mb41 as M  # the plug-in (its block runners)

        inp = self.inp
        rules = self.E.rules(inp.comb, inp.rule_table)

        def run(kernel, comb, *args):
            self._base = None
            self.E.copies[id(kernel)](comb.copy(), rules, *args)

        if inp.episode is None:
            self.raw = M._play_fight(inp, self.trial, 1, self.key, 1, False, run=lambda k, *a: run(k, inp.comb, *a))
        else:
            self.raw = M._play_episode(inp, self.trial, 1, self.key, 1, run=lambda k, *a: run(k, inp.comb, *a))
        self.summary()
        return self

    # ------------------------------------------------------------ reading the world
    def rows(self, w):
        """``(comb, rules, dyn, streams, bf, offset)`` of world ``w``: ``offset`` is the row of
        its block's first combatant in the scenario's (stacked) rows."""
        comb, rules, dyn, streams, bf = self.E.worlds[int(w)]
        if self._base is None:
            self._base = comb.ctypes.data
        return comb, rules, dyn, streams, bf, (comb.ctypes.data - self._base) // comb.strides[0]

    def name(self, i, w) -> str:
        off = self.rows(w)[5]
        k = int(i) + off
        return self.inp.names[k] if 0 <= k < len(self.inp.names) else f"#{k}"

    def state_of(self, j, w) -> dict:
        comb, rules, dyn, streams, bf, off = self.rows(w)
        out = {"resolve": int(dyn[j, L.D_RES]), "overcharge": [int(dyn[j, L.D_OC + s]) for s in range(3)],
               "dead": bool(dyn[j, L.D_DEAD])}
        if int(rules[L.R_POSITIONS]) > 0:
            out["pos"] = int(dyn[j, L.D_PLACE])
        elif int(dyn[j, L.D_POS]) >= 0:
            out["pos"] = int(dyn[j, L.D_POS])
        return out

    def status(self, j, w) -> str:
        comb, rules, dyn, streams, bf, off = self.rows(w)
        s = self.state_of(j, w)
        parts = [f"Resolve {s['resolve']}/{int(comb[j, L.C_RES])}"]
        if comb[j, L.C_MONSTER] == 0:
            parts.append("overcharge " + "/".join(str(v) for v in s["overcharge"]) + " (H/F/J)")
        ail = [n for a, n in AILMENTS.items() if dyn[j, L.D_AIL + a] != 0]
        if ail:
            parts.append(", ".join(ail))
        if "pos" in s and s["pos"] >= 0 and (self.placed or int(rules[L.R_POSITIONS]) == 0):
            parts.append(f"at {self.where(s['pos'])}")
        if dyn[j, L.D_FRENZY] != 0:
            parts.append("in a Fury frenzy")
        if s["dead"]:
            parts.append("out of the fight")
        elif s["resolve"] <= 0:
            parts.append("down")
        return ", ".join(parts)

    def describe(self, j, w) -> str:
        comb, rules, dyn, streams, bf, off = self.rows(w)
        k = j + off
        side = self.side_names[int(comb[j, L.C_SIDE])]
        stats = (f"Attack {int(comb[j, L.C_ATT])}, Defence {int(comb[j, L.C_DEF])}, Support {int(comb[j, L.C_SUP])}"
                 f", damage {int(comb[j, L.C_DMG]):+d}")
        tal = [t for t in (self.inp.talents[k] if k < len(self.inp.talents) else []) if t]
        return f"[{side}, {self.inp.kinds[k]}] {stats}" + (f"; talents {', '.join(tal)}" if tal else "") + \
            f"; {self.status(j, w)}"

    def where(self, p) -> str:
        bfield = self.inp.battlefield
        if p is None or p < 0:
            return "nowhere"
        if bfield is not None and p < bfield.n:
            return f"hex {int(p)} ({int(bfield.q[p])},{int(bfield.r[p])})"
        return f"position {int(p) + 1}"

    # ------------------------------------------------------------ dice text
    @staticmethod
    def faces(rolled, pick) -> list:
        """The faces of the rolls since the observer reset ``rolled`` (``pick``: the part of an
        opposed draw: 0 the attacker's, 1 the defender's)."""
        out = []
        for name, faces, r in rolled:
            if name == "opposed_2d6":
                if pick is not None:
                    out += faces[pick]
                continue
            out += [f for f in faces if not isinstance(f, list)]
        return out

    def pool_parts(self, rolled, pick) -> str:
        return "2d6! " + dice_text(self.faces(rolled, pick))

    # ------------------------------------------------------------ events
    def emit(self, kind: str, depth: int, text: str, **fields):
        ev = {"event": kind, "depth": depth, "text": text}
        if self.fight_no:
            ev["fight"] = self.fight_no
        if self.round:
            ev["round"] = self.round
        ev.update(fields)
        self.events.append(ev)
        return ev

    def summary(self):
        """The closing summary (:func:`summary_events`)."""
        self.events += summary_events(self.inp, self.raw)


def summary_events(inputs, raw) -> list[dict]:
    """The closing summary from the block kernel's arrays of one trial alone (``raw``, as
    ``_play_fight`` / ``_play_episode`` return them), so the compiled run's arrays for the same
    trial give the same events (``tests/test_mb41_play.py``)."""
    f = raw["fights"][0]
    outcome = int(np.argmax(f[:3]))
    sides = inputs.side_names
    res = (f"{sides[0]} win", f"{sides[1]} win", "draw")[outcome]
    out = [{"event": "outcome", "depth": 0, "text": f"OUTCOME: {res} in {int(f[L.F_ROUNDS])} round(s)",
            "outcome": ("win", "loss", "draw")[outcome], "rounds": int(f[L.F_ROUNDS])}]
    cc = raw["cc"][0]
    for k, nm in enumerate(inputs.names):
        c = cc[k]
        if not c[:L.NK].any():
            continue  # a reserve row that never appeared, a scene never reached
        oc = ", ".join(f"{STATS[s]} +{int(c[L.K_OC_GAIN + s])}" for s in range(3) if c[L.K_OC_GAIN + s])
        bursts = ", ".join(f"{STATS[s]} {int(c[L.K_BURSTS + s])}" for s in range(3) if c[L.K_BURSTS + s])
        parts = [f"{label} {int(c[getattr(L, col)])}" for col, label in SUMMARY if c[getattr(L, col)]]
        state = "standing" if c[L.K_STANDING_END] else "not standing"
        text = f"{nm}: {state}, Resolve at the end {int(c[L.K_RES_END])}; " + ", ".join(parts) + \
            (f"; overcharge gained {oc}" if oc else "") + (f"; bursts {bursts}" if bursts else "")
        out.append({"event": "summary", "depth": 1, "text": text, "who": nm,
                    "counters": {COUNTER_NAMES[j]: int(c[j]) for j in range(L.NK) if c[j]}})
    return out


def variant_key(scenario, seed, index: int = 0) -> np.uint64:
    """The stream key ``sim run`` gives the variant at ``index`` (:func:`sim.runner._make_variants`)."""
    crn = getattr(scenario, "crn", True)
    return rng.stream_key(seed, 0 if crn else index + 1)


def play_events(scenario, seed, trial: int = 0, index: int = 0, compile=None) -> tuple[list[dict], Trial]:
    """The events of trial ``trial`` of ``sim run --seed seed`` of this variant (its ``index``);
    ``compile``: the rule system's (the draft's for mb-draft; default 4.1's)."""
    inputs = (compile or compile_scenario)(scenario)
    t = Trial(inputs, variant_key(scenario, seed, index), trial).run()
    r = inputs.resolved_rules
    geo = "hex grid" if inputs.battlefield is not None else (
        f"{int(inputs.rule_table[L.R_POSITIONS])} positions" if int(inputs.rule_table[L.R_POSITIONS]) > 0
        else "no grid")
    head = {"event": "start", "depth": 0, "seed": int(seed), "trial": int(trial), "geometry": geo,
            "scenes": len(t.scene_names) or 1,
            "text": f"{getattr(scenario, 'system', 'mb41')} fight: trial {trial} of `sim run --seed {seed}` "
                    f"({geo}, round cap {r.get('round_cap', '?')}, defeat {r.get('defeat', '?')})"}
    return [head] + [e for e in t.events if not e.get("drop")], t


def play_log(scenario, seed, trial: int = 0, as_json: bool = False, index: int = 0, compile=None) -> str:
    """``sim play``'s text (or JSON lines) for trial ``trial`` with ``seed`` (:func:`play_events`)."""
    events, _ = play_events(scenario, seed, trial, index, compile)
    if as_json:
        return "\n".join(json.dumps(e, sort_keys=False) for e in events)
    lines = []
    for e in events:
        if e["depth"] == 0 and e["event"] in ("fight", "round", "outcome", "rest"):
            lines.append("")
        lines.append("  " * e["depth"] + e["text"])
    return "\n".join(lines)
