"""A readable log of one seeded d10 trial (``sim play FILE --seed S --log``).

The log is trial 0 of ``sim run FILE --seed S``: its four streams are seeded
exactly as :func:`.kernel.simulate_blocks` seeds them, and the trial is played
by the kernel's own functions run as plain Python (each numba dispatcher's
``py_func``, re-bound to a private copy of the kernel's namespace). The log
observes that code through thin wrappers around some of those functions
(dice drawn, defences, fortune, mana, specials) and a diff of the state
after each turn; the wrappers return what the wrapped function returns and
draw nothing, so the trial is the one the compiled kernel plays
(``tests/test_d10_play.py`` checks its counters against the compiled run).
A trial is a campaign: ``episodes`` x ``fights_per_episode`` fights (one
fight by default).
"""
from __future__ import annotations

import types

import numpy as np

from sim import rng

from . import kernel as K
from ._play_hooks import ATTACK_NAMES, OUT_NAMES, Hooks
from .compile import compile as compile_scenario

RESULT_NAMES = {K.F_WIN: "{a} win", K.F_LOSS: "{b} win", K.F_DRAW: "draw"}


def python_kernel(wrap=None, names=None) -> types.SimpleNamespace:
    """The kernel's functions as plain Python in a private namespace.

    Every function defined in the kernel's phase modules (:data:`.kernel.MODULES`)
    is copied with its globals set to that one namespace (their names are
    unique across the phases), so calls between them stay in Python and go
    through ``wrap(name, fn)`` (a wrapper or ``fn``) when given, for the
    functions named in ``names`` (default: those the log observes). The stream
    functions imported from :mod:`sim.rng` stay as they are (wrappable too).
    """
    ns = dict(K.__dict__)
    for mod in K.MODULES:
        ns.update({k: v for k, v in vars(mod).items() if not k.startswith("__")})
    for mod in K.MODULES:
        for name, obj in vars(mod).items():
            py = getattr(obj, "py_func", obj)
            if isinstance(py, types.FunctionType) and py.__module__ == mod.__name__:
                ns[name] = types.FunctionType(py.__code__, ns, py.__name__, py.__defaults__, py.__closure__)
    if wrap is not None:
        names = _WRAPPED if names is None else names
        for name in list(ns):
            if callable(ns[name]) and (name in names):
                ns[name] = wrap(name, ns[name])
    return types.SimpleNamespace(**{k: v for k, v in ns.items() if callable(v)}, ns=ns)


#: wrapped by name (:meth:`Trial._wrap`, ``Hooks._h_<name>``); a pool roll is logged once, in
#: ``roll_dice`` (``roll_pool`` only calls it, so it is not wrapped: it would log the roll twice)
_WRAPPED = ("randbelow", "randbelow_inline", "roll_dice", "pool_size", "init_roll", "goes_before",
            "roll_initiative", "start_episode", "start_fight", "fight", "take_turn", "take_turn_plain", "attack_plain",
            "attack_form", "attack", "attack_extras", "augmentation", "stunt_dice", "pay_mana",
            "fortune_action", "fortune_defence", "resolve_hit", "hold", "recharge", "retreat",
            "pursue", "hide", "aid", "escape", "grapple", "hammerspace", "heal_hooks", "duplicate",
            "endurance_roll", "block_mana")


class Trial(Hooks):
    """One trial played by the Python kernel, with its log (``lines``) and its
    counters: ``outcome`` (``F_WIN``/``F_LOSS``/``F_DRAW``), ``rounds``,
    ``fights``, ``cc[n, NK]`` (what ``simulate`` adds up) and the final ``dyn``."""

    def __init__(self, inputs, key, trial: int = 0):
        self.inp = inputs
        self.key = np.uint64(key)
        self.trial = int(trial)
        self.lines: list[str] = []
        self.K = python_kernel(self._wrap)
        self.order: list[int] = []
        self.round = 0
        self.last_pos = 10 ** 9
        self.fight_no = 0
        self.episode = 0
        self._pending: list[tuple] = []
        self._draws: list[tuple] = []
        self._rolling = False
        self._first_match = False

    # ------------------------------------------------------------ running
    def run(self) -> "Trial":
        inp = self.inp
        n = inp.n
        cap = inp.round_cap
        self.dyn = np.zeros((n, K.ND), dtype=np.int64)
        order = np.zeros(n, dtype=np.int64)
        ikey = np.zeros(n, dtype=np.int64)
        fo = np.zeros(1, dtype=np.int64)
        streams = np.zeros((K.NS, rng.STATE_WORDS), dtype=np.uint64)
        self.cc = np.zeros((n, K.NK), dtype=np.int64)
        side_curve = np.zeros((2, 2, cap + 1), dtype=np.int64)
        comb_curve = np.zeros((n, 2, cap + 1), dtype=np.int64)
        for p in range(K.NS):  # as simulate_blocks seeds trial ``start + t``
            rng.seed_stream(streams[p], self.key, np.int64(self.trial), p)
        outcome, rounds = self.K.campaign(inp.comb, inp.pol, inp.rules, inp.tab, self.dyn, order, ikey, streams,
                                          self.cc, side_curve, comb_curve, fo, inp.plain)
        self.outcome, self.rounds, self.fights = int(outcome), int(rounds), int(fo[0])
        self.lines.append("")
        self.lines.extend(final_lines(inp, self.outcome, self.rounds, self.fights, self.cc))
        return self

    def _wrap(self, name, fn):
        hook = getattr(self, "_h_" + name)

        def wrapped(*args):
            return hook(fn, *args)

        wrapped.__name__ = name
        return wrapped

    # ------------------------------------------------------------ formatting helpers
    def name(self, i) -> str:
        return self.inp.names[int(i)]

    def say(self, text: str, depth: int = 2):
        self.lines.append("  " * depth + text)

    def status(self, i) -> str:
        c, d = self.inp.comb, self.dyn
        parts = [f"W {d[i, K.D_W]}/{c[i, K.C_WMAX]}"]
        if c[i, K.C_MANA] > 0:
            parts.append(f"mana {d[i, K.D_MANA]}/{c[i, K.C_MANA]}")
        if c[i, K.C_FORT] > 0:
            parts.append(f"fortune {d[i, K.D_FORT]}/{c[i, K.C_FORT]}")
        return ", ".join(parts)

    def roster(self):
        c = self.inp.comb
        for i in range(self.inp.n):
            if self.dyn[i, K.D_ACTIVE] == 0:
                continue
            side = self.inp.side_names[int(c[i, K.C_SIDE])]
            kind = ATTACK_NAMES[int(c[i, K.C_ATK])]
            out = "" if self.dyn[i, K.D_OUT] == K.OUT_IN else f" ({OUT_NAMES[int(self.dyn[i, K.D_OUT])]}, sits out)"
            self.say(f"{self.name(i)} [{side}, {self.inp.kinds[i]}, {kind}, DR {c[i, K.C_DR]}, "
                     f"thresholds at {c[i, K.C_T1]}/{c[i, K.C_T2]}/{c[i, K.C_T3]}]: {self.status(i)}{out}", 1)



def final_lines(inputs, outcome: int, rounds: int, fights: int, cc) -> list[str]:
    """The closing summary, from the counters alone (so the compiled run's
    counters for the same trial print the same lines)."""
    sides = inputs.side_names
    res = RESULT_NAMES[int(outcome)].format(a=sides[0], b=sides[1])
    out = [f"OUTCOME: {res}; {int(rounds)} round(s) in {int(fights)} fight(s)"]
    for i, nm in enumerate(inputs.names):
        c = cc[i]
        state = "standing" if c[K.K_STANDING_END] else "down"
        bands = "/".join(str(int(c[K.K_BAND + b])) for b in range(3))
        out.append(f"  {nm}: {state}, wounds at the end {c[K.K_WOUNDS_END]}; attacks {c[K.K_ATTACKS]}, hits "
                   f"{c[K.K_HITS]}, dealt {c[K.K_DEALT]}, taken {c[K.K_TAKEN]}; thresholds 2/3/4 reached "
                   f"{bands}; KOs {c[K.K_KOS]}, deaths {c[K.K_DEATHS]}, fled {c[K.K_FLED]}; mana spent "
                   f"{c[K.K_MANA]}, fortune spent {c[K.K_FORTUNE]}")
    return out


def play_log(scenario, seed) -> str:
    """The log of trial 0 of ``sim run`` of this variant with ``seed``."""
    inputs = compile_scenario(scenario)
    key = rng.stream_key(seed, 0)
    t = Trial(inputs, key, 0).run()
    r = inputs.rules
    head = [f"d10 combat — one trial, seed {seed} (trial 0 of `sim run --seed {seed}`)",
            f"mode {'grim' if r[K.R_MODE] == 1 else 'cake'}, initiative "
            f"{'listed' if r[K.R_INITIATIVE] == 1 else 'rolled'}, {int(r[K.R_EPISODES])} episode(s) x "
            f"{int(r[K.R_FIGHTS_PER_EPISODE])} fight(s), round cap {int(r[K.R_ROUND_CAP])}",
            "Dice: d10 pools, 7-9 one success, 10 two. W = wounds / wound pool."]
    if not getattr(scenario, "crn", True):
        head.append("Note: this scenario has crn: false; the log uses the stream key of crn: true.")
    return "\n".join(head + t.lines)
