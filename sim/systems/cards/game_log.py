"""A readable log of one seeded game (``sim play FILE --seed S --log``).

The game is trial 0 of ``sim run FILE --seed S`` (same streams), driven one
decision at a time through the engine's own ``legal`` / ``choose`` / ``apply``,
so the log shows exactly the game the kernel plays. It is a designer's view:
both hands and every drawn card are shown (the policies never see them).
"""
from __future__ import annotations

import numpy as np

from sim import rng

from . import engine as E
from .compile import compile as compile_scenario
from .tables import deck_labels


class Game:
    """One game's arrays, for the log and for tests (a thin Python driver)."""

    def __init__(self, inputs, key=0, trial=0, log=True, logsize=20000):
        self.inp = inputs
        self.g = np.zeros(E.NSTATE, dtype=np.int64)
        self.w = np.zeros(E.NSTATE, dtype=np.int64)
        self.st = np.zeros((E.NST, rng.STATE_WORDS), dtype=np.uint64)
        self.rs = np.zeros_like(self.st)
        self.acts = np.zeros(E.MAXACT, dtype=np.int64)
        self.acts2 = np.zeros(E.MAXACT, dtype=np.int64)
        self.rp = np.zeros((2, E.NPP), dtype=np.int64)
        self.scores = np.zeros(E.MAXACT, dtype=np.float64)
        self.lg = np.zeros((logsize, E.LOGW), dtype=np.int64)
        E.seed_game(self.st, np.uint64(key), trial)
        E.init_game(self.g, inputs.nd, inputs.dcnt)
        self.g[E.G_LOGON] = 1 if log else 0

    # -- OpenSpiel-style contract
    def advance(self):
        E.advance(self.g, self.inp.cd, self.inp.rules, self.st, self.lg)

    def legal(self) -> list[int]:
        n = E.legal(self.g, self.inp.cd, self.inp.rules, self.acts)
        return [int(a) for a in self.acts[:n]]

    def legal_mask(self) -> np.ndarray:
        m = np.zeros(E.NACT, dtype=bool)
        m[self.legal()] = True
        return m

    def choose(self) -> int:
        """The action the player to move's policy picks."""
        n = E.legal(self.g, self.inp.cd, self.inp.rules, self.acts)
        k = E.choose(self.g, self.inp.cd, self.inp.rules, self.inp.pol, int(self.g[E.G_TOMOVE]), self.acts, n,
                     self.st, self.w, self.rs, self.acts2, self.rp, self.lg, self.scores)
        return int(self.acts[k])

    def apply(self, a: int):
        E.apply(self.g, self.inp.cd, self.inp.rules, np.int64(a), self.st, self.lg)

    @property
    def over(self) -> bool:
        return int(self.g[E.G_PHASE]) == E.PH_OVER

    def run(self, max_steps=100000):
        self.advance()
        for _ in range(max_steps):
            if self.over:
                break
            self.apply(self.choose())

    # -- views
    def pv(self, p, field):
        return int(self.g[E.pb(p) + field])

    def slot(self, p, s) -> dict:
        b = E.sb(p, s)
        keys = ("hero", "girl", "pet0", "pet1", "grand", "hp", "maxhp", "mgk", "gatt", "npet")
        return {k: int(self.g[b + i]) for i, k in enumerate(keys)}

    def hand(self, p) -> dict:
        names = self.inp.card_names[p]
        return {names[i]: int(self.g[E.pb(p) + E.P_HAND + i]) for i in range(len(names))
                if self.g[E.pb(p) + E.P_HAND + i] > 0}

    def dream(self, p) -> dict:
        names = self.inp.card_names[p]
        return {names[i]: int(self.g[E.pb(p) + E.P_DREAM + i]) for i in range(len(names))
                if self.g[E.pb(p) + E.P_DREAM + i] > 0}

    def deck(self, p) -> list[int]:
        b = E.pb(p)
        return [int(x) for x in self.g[b + E.P_DECK:b + E.P_DECK + self.g[b + E.P_DECKN]]]


# ------------------------------------------------------------------ formatting
def _gems(h):
    if h == 1:
        return "½"
    return f"{h // 2}" + ("½" if h % 2 else "")


class _Fmt:
    def __init__(self, game: Game):
        self.G = game
        self.sides = game.inp.side_names
        self.names = game.inp.card_names

    def c(self, p, loc):
        return self.names[p][loc] if loc >= 0 else "-"

    def fighter(self, p, s):
        d = self.G.slot(p, s)
        if d["hero"] < 0:
            return "(empty)"
        parts = [self.c(p, d["hero"])]
        if d["girl"] >= 0:
            parts.append("+ " + self.c(p, d["girl"]))
        for k in ("pet0", "pet1"):
            if d[k] >= 0:
                parts.append("+ pet " + self.c(p, d[k]))
        if d["grand"] >= 0:
            parts.append("+ GRAND " + self.c(p, d["grand"]))
        atk = E.fighter_atk(self.G.g, self.G.inp.cd, self.G.inp.rules, p, s)
        return f"{' '.join(parts)} [HP {d['hp']}/{d['maxhp']}, ATK {atk}, MGK {d['mgk']}]"

    def board(self, p, undo=None):
        """Side ``p``'s board now; ``undo`` (from :func:`_undo_after`) takes back the
        hand / deck / Dreamscape moves logged after the turn header, so the header
        shows the hand before the draw it reports."""
        G = self.G
        u = undo[p] if undo is not None else {"hand": {}, "deck": 0, "dream": 0}
        held = G.hand(p)
        for name, k in u["hand"].items():
            held[name] = held.get(name, 0) + k
        held = {k: v for k, v in held.items() if v > 0}
        lines = [f"  {self.sides[p]}: gems {_gems(G.pv(p, E.P_GEMS))}, hand {sum(held.values())}, "
                 f"deck {G.pv(p, E.P_DECKN) + u['deck']}, Dreamscape {G.pv(p, E.P_DREAMN) + u['dream']}",
                 f"    active: {self.fighter(p, 0)}"]
        for s in range(1, E.NSLOT):
            if G.slot(p, s)["hero"] >= 0:
                lines.append(f"    squad {s}: {self.fighter(p, s)}")
        hand = ", ".join(f"{k}×{v}" if v > 1 else k for k, v in held.items())
        lines.append(f"    hand: {hand or '(empty)'}")
        return "\n".join(lines)

    def action(self, a):
        G = self.G
        p = int(G.g[E.G_TOMOVE])
        ph = int(G.g[E.G_PHASE])
        kind, arg = a >> 8, a & 255
        who = self.sides[p]
        if ph == E.PH_PICK:
            return f"{who} searches the deck for hero {self.c(p, arg)}"
        if ph == E.PH_OPEN_HERO:
            return f"{who} lays hero {self.c(p, arg)} face down"
        if ph == E.PH_OPEN_GIRL:
            return f"{who} lays magical girl {self.c(p, arg)} face down"
        if ph == E.PH_REACT:
            if kind == E.K_PASS:
                return f"{who} lets it through (no event)"
            return f"{who} responds with event {self.c(p, arg)}"
        if ph == E.PH_EVENT:
            when = "after the action" if p != int(G.g[E.G_CUR]) else "after the last action"
            if kind == E.K_PASS:
                return f"{who} plays no (more) event {when}"
            return f"{who} plays event {self.c(p, arg)} ({when}, any time)"
        if ph == E.PH_REPLACE:
            if kind == E.K_PROMOTE:
                return f"{who} moves {self.fighter(p, arg)} from the Squad to the active position"
            return f"{who} places {self.c(p, arg)} from hand as the active fighter"
        acts = int(G.g[E.G_ACTS])
        tag = f"[action {int(G.inp.rules[E.R_ACTIONS_PER_TURN]) - acts + 1}]"
        if kind == E.K_END:
            return f"{who} ends the turn"
        if kind == E.K_ATTACK:
            return f"{tag} {who} attacks with {self.fighter(p, 0)}"
        if kind == E.K_DRAW:
            return f"{tag} {who} takes the Draw action"
        if kind == E.K_RETREAT:
            return f"{tag} {who} retreats {self.fighter(p, 0)} for {self.fighter(p, arg)}"
        if kind == E.K_TRANSFORM:
            s = arg & 3
            where = "active" if s == 0 else f"squad {s}"
            return f"{tag} {who} transforms {self.c(p, G.slot(p, s)['hero'])} ({where}) with {self.c(p, arg >> 2)}"
        if kind == E.K_PET:
            return f"{tag} {who} summons pet {self.c(p, arg)}"
        if kind == E.K_POWER:
            return f"{tag} {who} plays Magical Power {self.c(p, arg)}"
        if kind == E.K_GRAND:
            return f"{tag} {who} plays GRAND TRANSFORMATION {self.c(p, arg)}"
        if kind == E.K_PLACE:
            return f"[free] {who} places hero {self.c(p, arg)} on the Squad"
        if kind == E.K_EVENT:
            return f"[free] {who} plays event {self.c(p, arg)}"
        return f"{who}: action {a}"

    def event(self, row):
        code, p, a, b = (int(x) for x in row[:4])
        if code < 0 or p < 0 or p > 2:
            return None
        who = self.sides[p] if p < 2 else "draw"
        if code == E.EV_DRAW:
            return f"    {who} draws {self.c(p, a)}"
        if code == E.EV_DAMAGE:
            return f"    {who}'s active fighter takes {a} damage (HP {b} left)"
        if code == E.EV_KO:
            other = self.sides[1 - p]
            return f"    {who}'s {self.c(p, a)} is defeated: {other} earns {_gems(b)} gem(s)"
        if code == E.EV_EXHAUST:
            return f"    {who}'s {self.c(p, a)} runs out of MGK and goes to the Dreamscape"
        if code == E.EV_GRAND_EXPIRE:
            if self.G.inp.rules[E.R_GRAND_EXPIRY] == 0:
                return f"    {who}'s Grand Transformation ends: the cards attached to {self.c(p, b)} go to the " \
                       f"Dreamscape, the hero stays"
            return f"    {who}'s Grand Transformation ends: {self.c(p, b)}'s stack goes to the Dreamscape"
        if code == E.EV_DECKOUT:
            return f"    {who} must draw from an empty deck and LOSES"
        if code == E.EV_MULLIGAN:
            return f"    {who} has no magical girl in the opening draw: shuffles back and redraws ({a})"
        if code == E.EV_L53:
            where = ("kept in hand", "sent to the Dreamscape", "a hero: becomes the active fighter")[b]
            return f"    {who} is out of heroes and draws {self.c(p, a)}: {where}"
        if code == E.EV_WIN:
            if p == 2:
                return f"\nGAME OVER: draw ({E.REASON_NAMES[a]})"
            return f"\nGAME OVER: {who} wins ({E.REASON_NAMES[a]})"
        if code == E.EV_PREVENT:
            return f"    {who}'s shield prevents {a} damage"
        if code == E.EV_DISCARD:
            return f"    {who} discards {self.c(p, a)}"
        if code == E.EV_FIRST:
            return f"Coin flip: {who} goes first (and skips the first draw)"
        if code == E.EV_REVEAL:
            girl = f" transformed with {self.c(p, b)}" if b >= 0 else ""
            return f"{who} reveals {self.c(p, a)}{girl}"
        if code == E.EV_HEAL:
            return f"    {who}'s active fighter heals {a} (HP {b})"
        if code == E.EV_MGK:
            return f"    {who}'s active fighter MGK {a:+d} (now {b})"
        if code == E.EV_FETCH:
            return f"    {who} takes {self.c(p, a)} from the {'Dreamscape' if b else 'deck'} into hand"
        if code == E.EV_CANCEL:
            what = "attack" if a != 2 else "Magical Power's damage"
            return f"    {who}'s {what} fizzles (the fighter that {'declared' if a != 2 else 'cast'} it is no longer active)"
        return None


def _undo_after(rows, names) -> list[dict]:
    """Per side, the card moves of log ``rows`` (the events after a turn header,
    up to the next decision) taken back: ``{"hand": {name: +-k}, "deck": k,
    "dream": k}``. Only the automatic turn-start steps run there: the draw
    step (L16), the out-of-heroes draw (L53), and, for safety, fetches and
    discards."""
    undo = [{"hand": {}, "deck": 0, "dream": 0} for _ in range(2)]

    def hand(p, loc, k):
        h = undo[p]["hand"]
        h[names[p][loc]] = h.get(names[p][loc], 0) + k

    for row in rows:
        code, p, a, b = (int(x) for x in row[:4])
        if p not in (0, 1):
            continue
        u = undo[p]
        if code == E.EV_DRAW or (code == E.EV_L53 and b == 0):
            hand(p, a, -1)
            u["deck"] += 1
        elif code == E.EV_L53 and b == 1:
            u["dream"] -= 1
            u["deck"] += 1
        elif code == E.EV_L53 and b == 2:
            u["deck"] += 1
        elif code == E.EV_FETCH:
            hand(p, a, -1)
            if b:
                u["dream"] += 1
            else:
                u["deck"] += 1
        elif code == E.EV_DISCARD:
            hand(p, a, 1)
            u["dream"] -= 1
    return undo


def play_log(scenario, seed, variant: str = "") -> str:
    inputs = compile_scenario(scenario)
    key = rng.stream_key(seed, 0)
    G = Game(inputs, key=key, trial=0, log=True)
    F = _Fmt(G)
    decks = deck_labels(inputs, variant or "this variant")
    out = [f"Mahou Shoujo — one game, seed {seed} (trial 0 of `sim run --seed {seed}`)",
           f"{inputs.side_names[0]}: deck {decks[0]}, policy {inputs.policies[0]}",
           f"{inputs.side_names[1]}: deck {decks[1]}, policy {inputs.policies[1]}",
           "Cards are INVENTED examples. This log shows hidden cards; the policies never see them.", ""]
    seen = 0

    def flush():
        nonlocal seen
        n = int(G.g[E.G_LOGN])
        for i in range(seen, n):
            row = G.lg[i]
            if row[0] == E.EV_ACTION:
                continue
            if row[0] == E.EV_TURN:
                p = int(row[1])
                undo = _undo_after(G.lg[i + 1:n], inputs.card_names)
                out.append(f"\n=== Turn {int(row[2])}: {inputs.side_names[p]} ===")
                out.append(F.board(p, undo))
                out.append(F.board(1 - p, undo))
                continue
            s = F.event(row)
            if s:
                out.append(s)
        seen = n

    G.advance()
    flush()
    while not G.over:
        a = G.choose()
        out.append(F.action(a))
        G.apply(a)
        flush()
    g = G.g
    out.append(f"Final gems: {inputs.side_names[0]} {_gems(G.pv(0, E.P_GEMS))}, "
               f"{inputs.side_names[1]} {_gems(G.pv(1, E.P_GEMS))}; turns: {int(g[E.G_TURN])}")
    return "\n".join(out)
