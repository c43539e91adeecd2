"""The observers of :mod:`.fight_log`: one ``_h_<name>(fn, *args)`` per wrapped engine
function (:class:`.replay.Engine`). Each calls ``fn`` with its arguments unchanged,
returns its result, and only reads state to write events (no draws, no writes).

Every engine function takes the world ``w`` last; ``self.rows(w)`` gives the
world's arrays and the row offset of its block (an episode's scene is a block
of the stacked rows), so names are the scenario's.
"""
from __future__ import annotations

import numpy as np

from sim.dice import POOL_DIGITS, OPPOSED_DRAW

from . import layout as L
from .codes import A_BLEED, A_BOUND, A_STUN

STATS = ("Heart", "Fury", "Judgment")
AILMENTS = {A_STUN: "Stun", A_BOUND: "Bound", A_BLEED: "Bleed"}
#: the dice functions whose outermost call is one "dice" event
DICE = ("exploding_d6", "exploding_d6_ones", "opposed_2d6", "sum_dice", "sum_d6", "exploding_d6_dice")
_POOL = 6 ** POOL_DIGITS


def pool_faces(u: int, n: int) -> list[int]:
    """The faces an ``n``d6! pool read off the base-6 digits of one table draw ``u``
    (:func:`sim.dice._pool_table`): a six adds a die; the pool stops when its dice are used."""
    out, remaining = [], n
    for _ in range(POOL_DIGITS):
        if remaining == 0:
            break
        r = u % 6 + 1
        u //= 6
        out.append(r)
        if r != 6:
            remaining -= 1
    return out


def dice_text(faces) -> str:
    """``[5 6 3]``."""
    return "[" + " ".join(str(int(f)) for f in faces) + "]"


def faces_of(name: str, args, draws) -> list:
    """The faces of one dice call from its draws ``[(n, value)]``: die-by-die draws (n = 6 or
    a die's sides) are faces; a table draw is decoded (:func:`pool_faces`); the opposed
    draw gives the attacker's pool, the defender's and one damage die."""
    faces: list = []
    for n, v in draws:
        n, v = int(n), int(v)
        if n == _POOL:
            faces += pool_faces(v, int(args[1]))
        elif n == OPPOSED_DRAW:
            faces.append(pool_faces(v % _POOL, 2))
            faces.append(pool_faces((v // _POOL) % _POOL, 2))
            faces.append([v // _POOL // _POOL + 1])
        else:
            faces.append(v + 1)
    return faces


class Observers:
    """Mixed into :class:`.fight_log.Trial` (which provides ``emit``, ``name``, ``rows``,
    ``E`` and the bookkeeping fields)."""

    # ------------------------------------------------------------ dice
    def _draw(self, fn, state, n):
        v = fn(state, n)
        if self._dice_depth > 0:
            self._draws.append((n, v))
        return v

    def _dice(self, name, fn, args):
        self._dice_depth += 1
        if self._dice_depth == 1:
            self._draws = []
        try:
            r = fn(*args)
        finally:
            self._dice_depth -= 1
        if self._dice_depth == 0:
            faces = faces_of(name, args, self._draws)
            self.last_faces = faces
            self.rolled.append((name, faces, r))
        return r

    # ------------------------------------------------------------ the fight's frame
    def _h_fight_on(self, fn, order, key, side_curve, comb_curve, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        self.fight_no += 1
        self.round = 0
        if self.inp.episode is not None:  # the scene's own side names
            self.side_names = self.inp.episode.scenes[self.fight_no - 1].side_names
        self.emit("fight", 0, f"=== Fight {self.fight_no}" + (f" (scene {self.fight_no}: "
                  f"{self.scene_names[self.fight_no - 1]})" if self.scene_names else "") + " ===",
                  fight=self.fight_no)
        for j in range(comb.shape[0]):
            if dyn[j, L.D_DEAD] == 0:
                self.emit("combatant", 1, f"{self.name(j, w)}: {self.describe(j, w)}", who=self.name(j, w),
                          **self.state_of(j, w))
        outcome, rounds = fn(order, key, side_curve, comb_curve, w)
        res = {L.F_WIN: f"{self.side_names[0]} win", L.F_LOSS: f"{self.side_names[1]} win",
               L.F_DRAW: "a draw (the round cap)"}[int(outcome)]
        self.emit("fight_end", 0, f"--- Fight {self.fight_no} ends in round {int(rounds)}: {res}",
                  outcome=("win", "loss", "draw")[int(outcome)], rounds=int(rounds))
        for j in range(comb.shape[0]):
            if dyn[j, L.D_DEAD] == 0 or dyn[j, L.D_ABSENT] == 0:
                self.emit("combatant_end", 1, f"{self.name(j, w)}: {self.status(j, w)}", who=self.name(j, w),
                          **self.state_of(j, w))
        return outcome, rounds

    def _h_roll_initiative(self, fn, order, key, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        r = fn(order, key, w)
        names = [self.name(int(i), w) for i in order if dyn[int(i), L.D_DEAD] == 0]
        self.emit("initiative", 1, "Initiative: " + ", ".join(names), order=names)
        return r

    def _h_next_scene(self, fn, prev, a, e, ng, recover, party, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        r = fn(prev, a, e, ng, recover, party, w)
        self.emit("rest", 0, f"Rest before the next scene (up to {int(recover)} Recover use(s) each)")
        for g in range(ng):
            i = a + g
            self.emit("rested", 1, f"{self.name(i, w)}: {self.status(i, w)}", who=self.name(i, w),
                      **self.state_of(i, w))
        return r

    def _h_turn_of(self, fn, i, r, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        if int(r) != self.round:
            self.round = int(r)
            self.emit("round", 0, f"Round {self.round}", round=self.round)
        if dyn[i, L.D_DEAD] != 0:
            return fn(i, r, w)
        pending = int(dyn[i, L.D_PENDING])
        before = {j: self.state_of(j, w) for j in range(comb.shape[0])}
        if dyn[i, L.D_RES] <= 0 and pending == -1:
            return fn(i, r, w)
        self.emit("turn", 1, f"{self.name(i, w)} ({self.status(i, w)}):", who=self.name(i, w))
        if dyn[i, L.D_RES] <= 0 and pending >= 0:
            back = min(pending, int(comb[i, L.C_RES]))
            self.emit("back", 2, f"gets back up: Resolve {back} (her revive roll)", who=self.name(i, w),
                      resolve=back)
        n_ev = len(self.events)
        out = fn(i, r, w)
        self.moves(before, w)
        if not any(not e.get("drop") for e in self.events[n_ev:]):
            self.emit("idle", 2, "no action", who=self.name(i, w))
        return out

    def section(self, kind, text, fn, *args):
        """``fn(*args)`` under a header event, dropped when nothing was logged under it."""
        ev = self.emit(kind, 1, text)
        n_ev = len(self.events)
        r = fn(*args)
        if not any(not e.get("drop") for e in self.events[n_ev:]):
            ev["drop"] = True
        return r

    def _h_round_start(self, fn, w):
        return self.section("round_start", "Start of the round:", fn, w)

    def _h_round_end(self, fn, r, order, m, w):
        return self.section("round_end", "End of the round:", fn, r, order, m, w)

    def _h_fight_start(self, fn, order, key, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        self.placed = False
        r = self.section("fight_start", "Before round 1:", fn, order, key, w)
        self.placed = True
        if int(rules[L.R_POSITIONS]) > 0:
            where = [f"{self.name(j, w)} {self.where(int(dyn[j, L.D_PLACE]))}" for j in range(comb.shape[0])
                     if dyn[j, L.D_DEAD] == 0]
            self.emit("positions", 1, "Positions: " + ", ".join(where), places=where)
        return r

    def moves(self, before, w):
        """Position changes since ``before`` (hex cells, the draft's positions)."""
        comb, rules, dyn, streams, bf, off = self.rows(w)
        for j, b in before.items():
            p0, p1 = b.get("pos"), self.state_of(j, w).get("pos")
            if p0 != p1 and p1 is not None and p1 >= 0 and self.logged_pos.get((id(dyn), j)) != p1:
                self.emit("move", 2, f"{self.name(j, w)} is now at {self.where(p1)}", who=self.name(j, w),
                          **{"from": p0, "to": p1})
            self.logged_pos[(id(dyn), j)] = p1

    def _h_move_to(self, fn, i, c, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        p0 = int(dyn[i, L.D_POS])
        r = fn(i, c, w)
        p1 = int(dyn[i, L.D_POS])
        if p1 != p0:
            self.logged_pos[(id(dyn), int(i))] = p1
            self.emit("move", 2, f"{self.name(i, w)} moves {self.where(p0)} -> {self.where(p1)}",
                      who=self.name(i, w), **{"from": p0, "to": p1})
        return r

    # ------------------------------------------------------------ the attack
    def _h_attack(self, fn, i, t, w):
        self.emit("attack", 2, f"{self.name(i, w)} attacks {self.name(t, w)}", who=self.name(i, w),
                  target=self.name(t, w))
        dealt = fn(i, t, w)
        return dealt

    def _h_roll_attack(self, fn, i, a_bonus, combined, a_pd, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        self.rolled = []
        r = fn(i, a_bonus, combined, a_pd, w)
        a_total, a_six = int(r[0]), int(r[1])
        pen = int(self.E.fn("state", "roll_penalty")(i, w))
        parts = self.pool_parts(self.rolled, 0 if combined else None)
        stat = int(comb[i, L.C_ATT])
        self.emit("attack_roll", 3, f"attack: {parts} +{stat} Attack" + (f" -{pen} penalty" if pen else "")
                  + (f" {int(a_bonus):+d} bonus" if a_bonus else "") + f" = {a_total} ({a_six} six(es))",
                  who=self.name(i, w), faces=self.faces(self.rolled, 0 if combined else None), stat=stat,
                  penalty=pen, bonus=int(a_bonus), total=a_total, sixes=a_six)
        self._combined = self.rolled if combined else None
        return r

    def _h_roll_defence(self, fn, i, t, combined, d_pd, od_total, od_six, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        self.rolled = []
        r = fn(i, t, combined, d_pd, od_total, od_six, w)
        passive, magical, d_stat, d_total, d_six = (bool(r[0]), bool(r[1]), int(r[2]), int(r[3]), int(r[4]))
        who = self.name(t, w)
        if passive:
            text = f"defence: passive {d_total}"
        elif d_total < -(1 << 39):
            text = "defence: none (down)"
        else:
            rolled = (self._combined or []) + self.rolled if combined else self.rolled
            pick = 1 if combined else None
            kind = "2d6! + Defence" if magical else "passive / Tenacity"
            text = f"defence ({kind}): {self.pool_parts(rolled, pick)} -> {d_total} ({d_six} six(es))"
        self.emit("defence_roll", 3, text, who=who, passive=passive, stat=d_stat, total=d_total, sixes=d_six)
        return r

    def _h_damage_dice(self, fn, combined, first_die, w):
        self.rolled = []
        d = fn(combined, first_die, w)
        self._dmg_faces = ([int(first_die)] if combined and first_die > 0 else []) + self.faces(self.rolled, None)
        return d

    def _h__spend_boost(self, fn, i, role, chk, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        oc = [int(dyn[i, L.D_OC + s]) for s in range(3)]
        pool = int(dyn[i, L.D_POOL])
        self.rolled = []
        r, s = fn(i, role, chk, w)
        got = [int(dyn[i, L.D_OC + s2]) - b for s2, b in enumerate(oc)]
        what = ", ".join(f"{v:+d} {STATS[k]} overcharge" for k, v in enumerate(got) if v)
        if pool != int(dyn[i, L.D_POOL]):
            what = f"pool {pool} -> {int(dyn[i, L.D_POOL])}"
        self.emit("boost", 3, f"{self.name(i, w)} Boosts ({what or 'no overcharge'}): +{int(r)} "
                  f"{dice_text(self.faces(self.rolled, None))}", who=self.name(i, w), added=int(r), sixes=int(s))
        return r, s

    def _h_contest(self, fn, i, t, *args):
        w = args[-1]
        r = fn(i, t, *args)
        hit, a_total, d_total = bool(r[0]), int(r[1]), int(r[4])
        self.emit("hit" if hit else "miss", 3, f"{'HIT' if hit else 'miss'} ({a_total} vs {d_total})",
                  who=self.name(i, w), target=self.name(t, w), attack=a_total, defence=d_total)
        return r

    def _h_hit_damage(self, fn, i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, hit_dice, hit_plus,
                      fury_dice, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        parts = [f"dice {dice_text(self._dmg_faces) if dmg_dice >= 0 else '(rolled on the hit)'}"]
        base = int(comb[i, L.C_DMG] + dyn[i, L.D_DMG_ADJ])
        if base:
            parts.append(f"{base:+d} damage stat")
        six = int(rules[L.R_SIX_DAMAGE] * a_six - rules[L.R_DEFENDER_SIX_DAMAGE] * d_six)
        if six:
            parts.append(f"{six:+d} sixes")
        if a_boosts or d_boosts:
            parts.append(f"boosts {int(a_boosts)} vs {int(d_boosts)}")
        for v, what in ((dmg_bonus, "talent bonus"), (hit_plus, "flat"), (hit_dice, "d6 (talents)"),
                        (fury_dice, "d6 (frenzy)")):
            if v:
                parts.append(f"{int(v):+d} {what}")
        ev = self.emit("damage", 3, "", who=self.name(i, w), target=self.name(t, w))
        dmg = fn(i, t, a_six, d_six, a_boosts, d_boosts, dmg_dice, dmg_bonus, hit_dice, hit_plus, fury_dice, w)
        ev["text"] = f"damage {int(dmg)} after the talents: " + ", ".join(parts)
        ev["damage"] = int(dmg)
        return dmg

    def _h_intercept(self, fn, i, t, dmg, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        j = int(dyn[t, L.D_GUARD])
        self.rolled = []
        left = fn(i, t, dmg, w)
        if j >= 0 and self.rolled:
            self.emit("intercept", 3, f"{self.name(j, w)} tries to intercept for {self.name(t, w)}: "
                      f"{dice_text(self.faces(self.rolled, None))} + {int(comb[j, L.C_DEF])} Defence; {self.name(t, w)} takes {int(left)} of {int(dmg)}",
                      who=self.name(j, w), target=self.name(t, w), damage=int(dmg), left=int(left))
        return left

    # ------------------------------------------------------------ damage, drops, revives
    def _h__damage(self, fn, t, dmg, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        res0, dead0 = int(dyn[t, L.D_RES]), int(dyn[t, L.D_DEAD])
        ev = self.emit("takes", 3, "", who=self.name(t, w), damage=int(dmg)) if dmg > 0 and dead0 == 0 else None
        took = fn(t, dmg, w)
        if ev is not None:
            res1 = int(dyn[t, L.D_RES])
            ev["text"] = f"{self.name(t, w)} takes {int(took)} of {int(dmg)}: Resolve {res0} -> {res1}"
            if res0 <= 0:
                ev["text"] = f"{self.name(t, w)} takes {int(took)} wound damage (wounds {int(dyn[t, L.D_WOUNDS])})"
            ev.update(took=int(took), resolve=res1)
            if dyn[t, L.D_DEAD] != 0 and res0 <= 0:
                self.emit("death", 3, f"{self.name(t, w)} DIES of her wounds", who=self.name(t, w))
        return took

    def _h_dropped(self, fn, t, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        self.emit("ko", 3, f"{self.name(t, w)} drops to 0 Resolve (KO)", who=self.name(t, w))
        r = fn(t, w)
        if dyn[t, L.D_DEAD] != 0:
            self.emit("death", 3, f"{self.name(t, w)} is defeated (out of the fight)", who=self.name(t, w))
        return r

    def _h_revive_roll(self, fn, t, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        ev = self.emit("revive", 3, "", who=self.name(t, w))
        self.rolled = []
        r = fn(t, w)
        pool = self.faces(self.rolled[:1], None)
        back = self.faces(self.rolled[1:], None)
        ev["text"] = (f"{self.name(t, w)}'s revive roll: {dice_text(pool)} + {int(comb[t, L.C_SUP])} Support; "
                      f"Resolve {int(dyn[t, L.D_PENDING])} ({dice_text(back)} + band) back at her next turn")
        ev.update(faces=pool, pending=int(dyn[t, L.D_PENDING]))
        return r

    def _h__heal(self, fn, i, j, amount, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        res0 = int(dyn[j, L.D_RES])
        r = fn(i, j, amount, w)
        if int(dyn[j, L.D_RES]) != res0:
            self.emit("heal", 3, f"{self.name(i, w)} restores {self.name(j, w)}: Resolve {res0} -> "
                      f"{int(dyn[j, L.D_RES])}", who=self.name(i, w), target=self.name(j, w),
                      resolve=int(dyn[j, L.D_RES]))
        return r

    def _h_give_ailment(self, fn, t, a, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        had = int(dyn[t, L.D_AIL + a])
        r = fn(t, a, w)
        if had == 0 and dyn[t, L.D_AIL + a] != 0:
            self.emit("ailment", 3, f"{self.name(t, w)} is now {AILMENTS.get(int(a), a)}", who=self.name(t, w),
                      ailment=AILMENTS.get(int(a), int(a)))
        return r

    def _h_removal_roll(self, fn, i, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        ail0 = [a for a in AILMENTS if dyn[i, L.D_AIL + a] != 0]
        ev = self.emit("removal", 3, "", who=self.name(i, w))
        self.rolled = []
        r = fn(i, w)
        gone = [AILMENTS[a] for a in ail0 if dyn[i, L.D_AIL + a] == 0]
        ev["text"] = (f"{self.name(i, w)} tries to shake off her ailments: {dice_text(self.faces(self.rolled, None))}"
                      f" + {int(comb[i, L.C_SUP])} Support: " + (f"{', '.join(gone)} removed" if gone else "fails"))
        ev["removed"] = gone
        return r

    def _h_bleed(self, fn, j, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        if dyn[j, L.D_AIL + A_BLEED] != 0 and dyn[j, L.D_DEAD] == 0:
            self.emit("bleed", 2, f"{self.name(j, w)} bleeds", who=self.name(j, w))
        return fn(j, w)

    def _h_play_frenzied(self, fn, i, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        regen = int(dyn[i, L.K_FRENZY_REGEN])
        res = int(dyn[i, L.D_RES])
        ev = self.emit("frenzy_turn", 2, "", who=self.name(i, w))
        r = fn(i, w)
        got = int(dyn[i, L.K_FRENZY_REGEN]) - regen
        ev["text"] = f"{self.name(i, w)}'s frenzy turn" + (f": regains {got} Resolve ({res} -> {res + got})"
                                                            if got else "")
        ev["regained"] = got
        return r

    def _h_retaliate(self, fn, j, a, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        n = int(dyn[j, L.K_RETALIATIONS])
        ev = self.emit("retaliate", 3, f"{self.name(j, w)} strikes back at {self.name(a, w)} (frenzy, 2 Fury)",
                       who=self.name(j, w), target=self.name(a, w))
        r = fn(j, a, w)
        if int(dyn[j, L.K_RETALIATIONS]) == n:
            ev["drop"] = True
        return r

    # ------------------------------------------------------------ overcharge and bursts
    def _h_gain_overcharge(self, fn, i, stat, amount, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        before = int(dyn[i, L.D_OC + stat])
        pool = int(dyn[i, L.D_POOL])
        r = fn(i, stat, amount, w)
        after = int(dyn[i, L.D_OC + stat])
        if after != before:
            self.emit("overcharge", 3, f"{self.name(i, w)} +{after - before} {STATS[int(stat)]} overcharge "
                      f"({before} -> {after})", who=self.name(i, w), stat=STATS[int(stat)], gained=after - before,
                      total=after)
        elif int(dyn[i, L.D_POOL]) != pool:
            self.emit("overcharge", 3, f"{self.name(i, w)}'s pool {pool} -> {int(dyn[i, L.D_POOL])}",
                      who=self.name(i, w), pool=int(dyn[i, L.D_POOL]))
        return r

    def _h_play_burst(self, fn, j, s, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        self.emit("burst", 2, f"{self.name(j, w)}'s {STATS[int(s)]} BURST (overcharge {int(dyn[j, L.D_OC + s])})",
                  who=self.name(j, w), stat=STATS[int(s)])
        return fn(j, s, w)

    def _h_fury_spend(self, fn, i, hit, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        fury = int(dyn[i, L.D_OC + 1])
        dice = fn(i, hit, w)
        spent = fury - int(dyn[i, L.D_OC + 1])
        if spent:
            what = f"+{int(dice)}d6 damage" if dice else "her frenzy's due"
            self.emit("fury", 3, f"{self.name(i, w)} spends {spent} Fury ({what}): {fury} -> {fury - spent}",
                      who=self.name(i, w), spent=spent, dice=int(dice))
        return dice

    def _h_judgment_blast(self, fn, j, released, w):
        comb, rules, dyn, streams, bf, off = self.rows(w)
        if released <= 0:
            return fn(j, released, w)
        avoided = [int(dyn[k, L.K_JUDG_AVOIDED]) for k in range(comb.shape[0])]
        diff = int(rules[L.R_JUDGMENT_DIFFICULTY] * released)
        self.emit("judgment", 3, f"{self.name(j, w)}'s Judgment releases {int(released)} damage on everyone in "
                  f"reach (a Support check of {diff} avoids it)", who=self.name(j, w), released=int(released))
        r = fn(j, released, w)
        who = [self.name(k, w) for k in range(comb.shape[0]) if int(dyn[k, L.K_JUDG_AVOIDED]) > avoided[k]]
        if who:
            self.emit("avoided", 3, "avoided by " + ", ".join(who), who=who)
        return r

    # ------------------------------------------------------------ talents (every hook)
    def label(self, j, field, w) -> str:
        """A state field's name for a reader: ``tuses_k`` is the uses left of her k-th talent."""
        if field.startswith("tuses_"):
            k, slot = int(j) + self.rows(w)[5], int(field[6:])
            tal = self.inp.talents[k] if k < len(self.inp.talents) else []
            return f"{tal[slot] if slot < len(tal) and tal[slot] else 'talent ' + str(slot)} uses left"
        return LABELS.get(field, field.replace("_", " "))

    def hook(self, name, fn, args):
        """A talent hook ``h_<name>(a, b, c, w)``: logged when it acts (a chain's amount changes,
        it returns nonzero, or it changes someone's state: the fields it changed are named), at
        the place it was called (what it sets off follows)."""
        a, b, c, w = args
        comb, rules, dyn, streams, bf, off = self.rows(w)
        ev = self.emit("talent", 3, "", hook=name[2:], who=self.name(a, w))
        before = dyn.copy()
        r = fn(*args)
        combine = self.combine.get(name, "all")
        changed = state_changes(before, dyn)
        acted = (int(r) != int(c)) if combine == "chain" else (int(r) != 0 or bool(changed))
        if not acted:
            ev["drop"] = True
            return r
        who = self.name(a, w)
        if int(b) != int(a) and 0 <= int(b) < comb.shape[0]:
            who += f" (on {self.name(b, w)})"
        detail = f": {int(c)} -> {int(r)}" if combine == "chain" else ""
        if combine != "chain" and changed:
            detail = ": " + "; ".join(f"{self.name(j, w)} {self.label(j, what, w)} {x} -> {y}"
                                      for j, what, x, y in changed[:4]) + ("; ..." if len(changed) > 4 else "")
        ev["text"] = f"[{name[2:].replace('_', ' ')}] {who}{detail}"
        ev.update(other=self.name(b, w) if 0 <= int(b) < comb.shape[0] else int(b), c=int(c), result=int(r),
                  changed=[[self.name(j, w), what, x, y] for j, what, x, y in changed])
        return r


#: the name of each state column of ``dyn`` (``D_*`` in lower case; a wide field's k-th column ``name_k``)
STATE_NAMES = {L.STATE.constants()["D_" + f.name] + k: f.name.lower() + (f"_{k}" if f.width > 1 else "")
               for f in L.STATE.fields for k in range(f.width)}
#: readable names of state fields (:meth:`Observers.label`)
LABELS = {"res": "Resolve", "ail_0": "Stun", "ail_1": "Bound", "ail_2": "Bleed", "oc_0": "Heart overcharge",
          "oc_1": "Fury overcharge", "oc_2": "Judgment overcharge", "pool": "overcharge pool"}
#: bookkeeping columns a hook may touch that say nothing to a reader
QUIET = {"clock", "turns_done", "keeper_0", "keeper_1"}


def state_changes(before, dyn) -> list:
    """``[(row, field, old, new)]``: the state columns (``D_*``) that differ."""
    out = []
    for j, col in np.argwhere(before != dyn):
        j, col = int(j), int(col)
        if col >= L.NK and STATE_NAMES.get(col) not in QUIET:
            out.append((j, STATE_NAMES.get(col, str(col)), int(before[j, col]), int(dyn[j, col])))
    return out
