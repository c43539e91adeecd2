"""The observers of :mod:`.game_log`: one ``_h_<name>(fn, *args)`` per wrapped kernel
function. Each calls ``fn`` with its arguments unchanged, returns its result,
and only reads state to write log lines (no draws, no writes)."""
from __future__ import annotations

from . import kernel as K
from .compile import power_number

ATTACK_NAMES = ("melee", "ranged", "mystic", "specialization")
ABILITY_NAMES = ("STR", "AGI", "VIT", "MAG", "LCK")
DEFENCES = {K.T_DODGE: "Dodge", K.T_PARRY: "Parry", K.T_BLOCK: "Magic Block", K.T_LUCK: "Luck"}
OUT_NAMES = {K.OUT_IN: "back in", K.OUT_KO: "KNOCKED OUT", K.OUT_DEAD: "DEAD", K.OUT_FLED: "FLED"}
HELD_NAMES = {K.HELD_SPELL: "a spell", K.HELD_GRAPPLE: "a grapple", K.HELD_PIN: "a pin"}


def faces_of(draws) -> list[int]:
    """d10 faces of the draws of one pool: a draw below 10^k is k dice (its digits + 1)."""
    out = []
    for m, v in draws:
        k = len(str(int(m))) - 1
        v = int(v)
        for _ in range(k):
            out.append(v % 10 + 1)
            v //= 10
    return out


class Hooks:
    """Mixed into :class:`.game_log.Trial` (which provides ``K``, ``inp``, ``dyn``,
    ``say``, ``name``, ``status``, ``roster`` and the bookkeeping fields)."""

    # ------------------------------------------------------------ dice
    def _h_randbelow(self, fn, st, n):
        v = fn(st, n)
        if self._rolling:
            self._draws.append((n, v))
        return v

    _h_randbelow_inline = _h_randbelow

    def _h_pool_size(self, fn, comb, rules, dyn, i, ab, test, bonus, pen):
        n = fn(comb, rules, dyn, i, ab, test, bonus, pen)
        band = self.K.wound_band(comb, dyn, i)
        wpen = int(rules[K.R_THRESHOLD_PENALTIES + band - 1]) if band > 0 else 0
        self._pending.append((int(n), int(i), int(ab), int(test), int(bonus), int(pen), wpen,
                              int(dyn[i, K.D_HELD]), int(dyn[i, K.D_GRIEF])))
        return n

    def pool_text(self, e) -> str:
        n, i, ab, test, bonus, pen, wpen, held, grief = e
        c = self.inp.comb
        parts = [f"{c[i, K.C_DICE + ab]} {ABILITY_NAMES[ab]}"]
        for v, what in ((int(c[i, K.C_BONUS + test]), "perk"), (bonus, "bonus"), (-pen, "penalty"),
                        (-wpen, "wounds"), (-held, "held"), (-grief, "grief")):
            if v:
                parts.append(f"{v:+d} {what}")
        return " ".join(parts)

    def _h_roll_dice(self, fn, st, n, tab, rules):
        self._rolling = True
        self._draws = []
        try:
            s = fn(st, n, tab, rules)
        finally:
            self._rolling = False
        match = [e for e in self._pending if e[0] == n]
        e = (match[0] if self._first_match else match[-1]) if match else None
        self._pending = []
        faces = " ".join(str(f) for f in faces_of(self._draws))
        if e is None:
            label = f"rolls {int(n)} dice"
        else:
            test = e[3]
            what = f"defends with {DEFENCES[test]}" if test in DEFENCES else f"rolls {K.TEST_NAMES[test]}"
            label = f"{self.name(e[1])} {what}: {self.pool_text(e)} = {max(int(n), 0)}d10"
        self.say(f"{label} [{faces}] -> {int(s)} success{'es' if s != 1 else ''}", 3)
        return s

    def _first(self, fn, *args):
        """Run ``fn`` with the first matching pool labelling the roll (it rolls the
        first of two equal pools)."""
        self._pending = []
        self._first_match = True
        try:
            return fn(*args)
        finally:
            self._first_match = False

    def _h_endurance_roll(self, fn, *args):
        return self._first(fn, *args)

    def _h_init_roll(self, fn, comb, rules, tab, dyn, st, i):
        r = fn(comb, rules, tab, dyn, st, i)
        if comb[i, K.C_PMASK] & (1 << K.E_INITIATIVE_TENS):
            self.say(f"{self.name(i)} has Awareness: every initiative die counts as a 10 -> {int(r)}", 3)
        return r

    def _h_goes_before(self, fn, comb, rules, tab, dyn, st, key, a, b):
        if key[a] == key[b] and comb[a, K.C_SCORE + K.AGI] == comb[b, K.C_SCORE + K.AGI]:
            self.say(f"tie between {self.name(a)} and {self.name(b)} (successes and Agility): opposed "
                     f"re-rolls", 2)
        return fn(comb, rules, tab, dyn, st, key, a, b)

    # ------------------------------------------------------------ structure
    def _h_roll_initiative(self, fn, comb, rules, tab, dyn, st, order, key):
        listed = rules[K.R_INITIATIVE] == 1
        self.say("Initiative: " + ("the listed order" if listed else "Agility rolls (ties: Agility score, "
                                                                   "then re-rolls)"), 1)
        r = fn(comb, rules, tab, dyn, st, order, key)
        self.order = [int(x) for x in order]
        self.say("Order: " + ", ".join(self.name(i) for i in self.order if dyn[i, K.D_ACTIVE] or
                                       comb[i, K.C_KIND] == K.KIND_COPY), 1)
        self.round = 0
        self.last_pos = 10 ** 9
        return r

    def _h_start_episode(self, fn, comb, rules, dyn, first):
        r = fn(comb, rules, dyn, first)
        self.episode += 1
        if rules[K.R_EPISODES] > 1:
            self.say(f"\n##### Episode {self.episode}", 0)
        return r

    def _h_start_fight(self, fn, comb, dyn, cc, first):
        r = fn(comb, dyn, cc, first)
        self.fight_no += 1
        self.say(f"\n=== Fight {self.fight_no} ===", 0)
        self.roster()
        return r

    def _h_fight(self, fn, *args):
        outcome, rounds = fn(*args)
        sides = self.inp.side_names
        res = {K.F_WIN: f"{sides[0]} win", K.F_LOSS: f"{sides[1]} win", K.F_DRAW: "a draw"}[int(outcome)]
        how = "the round cap" if int(outcome) == K.F_DRAW and int(rounds) == int(self.inp.rules[K.R_ROUND_CAP]) \
            else f"round {int(rounds)}"
        self.say(f"--- Fight {self.fight_no} ends in {how}: {res}", 0)
        return outcome, rounds

    def _h_take_turn(self, fn, *args):
        return self.turn(fn, args)

    _h_take_turn_plain = _h_take_turn

    def turn(self, fn, args):
        dyn, cc, i = args[4], args[6], int(args[7])
        pos = self.order.index(i) if i in self.order else 0
        if pos <= self.last_pos:
            self.round += 1
            self.say(f"\nRound {self.round}", 0)
        self.last_pos = pos
        self.say(f"{self.name(i)} ({self.status(i)}):", 1)
        if dyn[i, K.D_RETREAT] > 0:
            self.say("nobody stopped her retreat: she leaves the fight", 2)
        elif dyn[i, K.D_STORED] > 0:
            self.say(f"trapped in Hammerspace: her action is the escape test (TN {dyn[i, K.D_STORED]})", 2)
        elif dyn[i, K.D_DISABLED] != 0:
            self.say("grappled: she loses this action", 2)
        before, cbefore = dyn.copy(), cc.copy()
        r = fn(*args)
        for line in self.diff_lines(before, cbefore, dyn, cc):
            self.say(line, 2)
        return r

    def diff_lines(self, b, cb, d, cc) -> list[str]:
        """What changed in the turn, per combatant."""
        c = self.inp.comb
        out = []
        for j in range(self.inp.n):
            ch = []
            if d[j, K.D_W] != b[j, K.D_W]:
                s = f"wounds {b[j, K.D_W]} -> {d[j, K.D_W]}/{c[j, K.C_WMAX]}"
                b0 = self.K.wound_band(c, b, j)
                b1 = self.K.wound_band(c, d, j)
                if b1 > b0:
                    pen = self.inp.rules[K.R_THRESHOLD_PENALTIES + b1 - 1]
                    s += f" (crosses into threshold band {b1 + 1}: -{pen} dice)"
                elif b1 < b0:
                    s += f" (back to threshold band {b1 + 1})"
                ch.append(s)
            if cc[j, K.K_PERM] > cb[j, K.K_PERM]:
                sev = " (severe)" if cc[j, K.K_PERM_SEVERE] > cb[j, K.K_PERM_SEVERE] else ""
                ch.append(f"a PERMANENT wound{sev} instead of going down")
            if d[j, K.D_OUT] != b[j, K.D_OUT]:
                o = int(d[j, K.D_OUT])
                ch.append("pops (a copy)" if c[j, K.C_KIND] == K.KIND_COPY and o == K.OUT_KO else OUT_NAMES[o])
            for col, what in ((K.D_MANA, "mana"), (K.D_FORT, "fortune"), (K.D_AID, "aid dice"),
                              (K.D_HELD, "held dice"), (K.D_HIDDEN, "hidden"), (K.D_RETREAT, "retreating"),
                              (K.D_STORED, "stored (escape TN)"), (K.D_DEFPEN, "defence penalty"),
                              (K.D_GRIEF, "grief dice"), (K.D_DISABLED, "loses next action"),
                              (K.D_ACTIVE, "present")):
                if d[j, col] != b[j, col]:
                    ch.append(f"{what} {b[j, col]} -> {d[j, col]}")
            if ch:
                out.append(f"= {self.name(j)}: " + "; ".join(ch))
        return out

    # ------------------------------------------------------------ attacks
    def _h_attack_plain(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, t):
        self.say(f"attacks {self.name(t)} ({ATTACK_NAMES[int(comb[i, K.C_ATK])]})", 2)
        hits, dealt = cc[i, K.K_HITS], cc[i, K.K_DEALT]
        r = fn(comb, pol, rules, tab, dyn, streams, cc, i, t)
        if cc[i, K.K_HITS] > hits:
            self.say(f"hit: {cc[i, K.K_DEALT] - dealt} wound(s) to {self.name(t)}", 3)
        return r

    def _h_attack(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, t, aid):
        if aid > 0:
            self.say(f"(+{aid} dice from an ally's Aid on this action)", 2)
        r = fn(comb, pol, rules, tab, dyn, streams, cc, i, t, aid)
        if r == 0:
            self.say("cannot pay for the attack", 3)
        return r

    def _h_attack_form(self, fn, comb, pol, rules, dyn, i, t):
        kind, cost, second = fn(comb, pol, rules, dyn, i, t)
        extra = (", her second form" if second else "") + (f", {cost} mana" if cost else "")
        self.say(f"attacks {self.name(t)} ({ATTACK_NAMES[int(kind)]}{extra})", 2)
        return kind, cost, second

    def _h_attack_extras(self, fn, comb, pol, rules, cc, i, kind, effect, avail, cost, ntargets):
        bar = cc[i, K.K_BARRAGE]
        kb, fa, pen, cost2 = fn(comb, pol, rules, cc, i, kind, effect, avail, cost, ntargets)
        if kb:
            self.say(f"Killing Blow (+{power_number(comb, i, 'killing_blow', 'cost')} mana): a hit takes her whole "
                     "wound pool", 3)
        if fa:
            self.say(f"Focused Assault (+{power_number(comb, i, 'focused_assault', 'cost')} mana)", 3)
        if ntargets > 1:
            how = f"Barrage (+{power_number(comb, i, 'barrage', 'cost')} mana)" if cc[i, K.K_BARRAGE] > bar \
                else f"-{pen} dice"
            self.say(f"{ntargets} targets: {how}", 3)
        return kb, fa, pen, cost2

    def _h_augmentation(self, fn, *args):
        aug, cost = fn(*args)
        if aug > 0:
            self.say(f"+{aug} augmentation dice (mana)", 3)
        return aug, cost

    def _h_stunt_dice(self, fn, pol, st, i):
        d = fn(pol, st, i)
        if d > 0:
            self.say(f"+{d} stunt dice", 3)
        return d

    def _h_pay_mana(self, fn, comb, dyn, cc, i, cost):
        w = dyn[i, K.D_W]
        r = fn(comb, dyn, cc, i, cost)
        if cost > 0:
            blood = f" ({dyn[i, K.D_W] - w} of it in wounds, Blood Magic)" if dyn[i, K.D_W] > w else ""
            self.say(f"{self.name(i)} spends {cost} mana{blood}", 3)
        return r

    def _fortune(self, i, before, after, dyn):
        self.say(f"{self.name(i)} spends 1 fortune: {int(before)} -> {int(after)} successes "
                 f"({dyn[i, K.D_FORT]} left)", 3)

    def _h_fortune_action(self, fn, pol, rules, dyn, cc, i, a, tn, need_exceed):
        r = fn(pol, rules, dyn, cc, i, a, tn, need_exceed)
        if r != a:
            self._fortune(i, a, r, dyn)
        return r

    def _h_fortune_defence(self, fn, comb, pol, rules, dyn, cc, t, d, a, need_exceed):
        r = fn(comb, pol, rules, dyn, cc, t, d, a, need_exceed)
        if r != d:
            self._fortune(t, d, r, dyn)
        return r

    def _h_resolve_hit(self, fn, comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, kb, fa):
        dealt, wi = cc[i, K.K_DEALT], dyn[i, K.D_W]
        r = fn(comb, pol, rules, dyn, streams, cc, i, t, a, d, dt, kb, fa)
        if r:
            self.say(f"hit ({int(a)} vs {int(d)}): {cc[i, K.K_DEALT] - dealt} wound(s) to {self.name(t)}", 3)
        else:
            self.say(f"miss ({int(a)} vs {int(d)})", 3)
            if dt == K.T_PARRY and dyn[i, K.D_W] != wi:
                self.say(f"the Parry deals {dyn[i, K.D_W] - wi} wound(s) back to {self.name(i)}", 3)
        return r

    def _h_hold(self, fn, dyn, t, pen, tn, kind, by):
        if pen >= dyn[t, K.D_HELD]:
            self.say(f"{self.name(t)} is held by {HELD_NAMES[int(kind)]}: -{pen} dice until she pulls free "
                     f"(TN {tn})", 3)
        return fn(dyn, t, pen, tn, kind, by)

    def _h_block_mana(self, fn, comb, rules, dyn, cc, t):
        m = dyn[t, K.D_MANA]
        r = fn(comb, rules, dyn, cc, t)
        self.say(f"{self.name(t)}'s Magic Block absorbs the magic: +{dyn[t, K.D_MANA] - m} mana", 3)
        return r

    # ------------------------------------------------------------ other actions
    def _h_recharge(self, fn, comb, rules, dyn, cc, i):
        self.say(f"Recharges: +{rules[K.R_RECHARGE_MANA]} mana (capped), -{rules[K.R_RECHARGE_PENALTY]} "
                 f"defence dice until her next turn", 2)
        return fn(comb, rules, dyn, cc, i)

    def _enemies(self, i):
        return self.K.count_enemies(self.inp.comb, self.dyn, self.inp.comb[i, K.C_SIDE])

    def _h_retreat(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, bonus):
        self.say(f"{self.name(i)} tries to retreat (TN {self._enemies(i)})", 2)
        r = fn(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
        self.say("she gets away at the start of her next turn unless pursued" if dyn[i, K.D_RETREAT] > 0
                 else "the retreat fails", 3)
        return r

    def _h_pursue(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
        self.say(f"pursues {self.name(t)} (TN {dyn[t, K.D_RETREAT]})", 2)
        return fn(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus)

    def _h_hide(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, bonus):
        self.say(f"tries to hide (TN {self._enemies(i)})", 2)
        r = fn(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
        self.say("hidden: she cannot be targeted" if dyn[i, K.D_HIDDEN] > 0 else "not hidden", 3)
        return r

    def _h_aid(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, j, bonus):
        self.say(f"aids {self.name(j)} (needs {rules[K.R_AID_SUCCESS]} success)", 2)
        return fn(comb, pol, rules, tab, dyn, streams, cc, i, j, bonus)

    def _h_escape(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, bonus):
        self.say(f"tries to pull free of {HELD_NAMES.get(int(dyn[i, K.D_HELD_KIND]), 'a hold')} "
                 f"(TN {dyn[i, K.D_HELD_TN]})", 2)
        r = fn(comb, pol, rules, tab, dyn, streams, cc, i, bonus)
        self.say("free" if dyn[i, K.D_HELD] == 0 else "still held", 3)
        return r

    def _h_grapple(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, t, pin, bonus):
        self.say(f"{'pins' if pin else 'grapples'} {self.name(t)} with Tentacles", 2)
        held = dyn[t, K.D_HELD]
        r = self._first(fn, comb, pol, rules, tab, dyn, streams, cc, i, t, pin, bonus)
        if dyn[t, K.D_HELD] == held and dyn[t, K.D_HELD_BY] != i:
            self.say("she slips the tentacles", 3)
        return r

    def _h_hammerspace(self, fn, comb, pol, rules, tab, dyn, streams, cc, i, t, bonus):
        self.say(f"tries to store {self.name(t)} in Hammerspace", 2)
        return fn(comb, pol, rules, tab, dyn, streams, cc, i, t, bonus)

    def _h_heal_hooks(self, fn, comb, pol, rules, dyn, cc, i):
        h = cc[i, K.K_HEALED]
        r = fn(comb, pol, rules, dyn, cc, i)
        if r:
            self.say(f"heals {cc[i, K.K_HEALED] - h} wound(s)", 2)
        return r

    def _h_duplicate(self, fn, comb, dyn, cc, i):
        made = fn(comb, dyn, cc, i)
        self.say(f"Duplication: makes {made} cop{'y' if made == 1 else 'ies'} (they act from next round)", 2)
        return made
