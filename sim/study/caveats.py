"""What a study's reading must say before its answer, so that it cannot mislead.

* :func:`base_rate`: the reference arm's win rate with its Wilson interval, the
  first sentence of a reading; and :func:`rate_warnings`: a warning when it is
  outside 10-90% (every effect is then squeezed against 0 or 100%: at a 98%
  base no talent can be worth more than 2 points) or when an arm's rate comes
  within :data:`CAP` of 0 or 100% (that effect is capped by the ceiling);
* :func:`assumptions`: the rule assumptions and notes of every arm's compiled
  inputs, once each, with the arms they apply to when not all;
* :func:`ignored`: the sentence for a flag that has no effect without another.
"""
from __future__ import annotations

import numpy as np

from sim.stats import wilson

#: base rates outside [LOW, HIGH] get a warning
LOW, HIGH = 0.10, 0.90
#: an arm whose rate is this close to 0 or 1 has an effect capped by the ceiling or floor
CAP = 0.03


def base_rate(wins, label: str = "base") -> dict:
    """``{rate, lo, hi, trials, label}`` of a 0/1 per-trial array (95% Wilson)."""
    wins = np.asarray(wins, dtype=float)
    n = int(wins.size)
    k = int(wins.sum())
    lo, hi = wilson(k, n) if n else (float("nan"), float("nan"))
    return {"label": label, "rate": k / n if n else float("nan"), "lo": float(lo), "hi": float(hi),
            "trials": n}


def base_sentence(b: dict) -> str:
    """``Base (no talent) win rate of the first side: 49.8% [49.1, 50.5] (20,000 trials).``"""
    return (f"Base ({b['label']}) win rate of the first side: {100 * b['rate']:.1f}% "
            f"[{100 * b['lo']:.1f}, {100 * b['hi']:.1f}] ({b['trials']:,} trials).")


def rate_warnings(b: dict, arms: dict[str, float] | None = None) -> list[str]:
    """Warnings about the base rate ``b`` and the arms' rates (name -> rate)."""
    out = []
    r = b["rate"]
    if r == r and not LOW <= r <= HIGH:
        side = "ceiling" if r > HIGH else "floor"
        room = 1 - r if r > HIGH else r
        out.append(f"Base win rate {100 * r:.1f}% is outside {100 * LOW:.0f}-{100 * HIGH:.0f}%: effects are "
                   f"squeezed against the {side} (at most {100 * room:.1f} points {'up' if r > HIGH else 'down'}"
                   "), so values and tiers understate what an entry does in an even fight. Recalibrate the "
                   "encounter near 50% (a calibrate study) before reading them.")
    near = [n for n, x in (arms or {}).items() if x == x and (x >= 1 - CAP or x <= CAP)]
    if near:
        out.append(f"{len(near)} arm{'s' if len(near) != 1 else ''} within {100 * CAP:.0f} points of "
                   f"{'100' if (arms or {})[near[0]] >= 1 - CAP else '0'}% ({', '.join(near[:6])}"
                   f"{', ...' if len(near) > 6 else ''}): their effects are capped by the ceiling or floor.")
    return out


def assumptions(arms: dict) -> list[str]:
    """Each arm's compiled notes (``inputs.notes``: rule assumptions, edits), once each;
    a note that holds for some arms only names them (at most four, then a count)."""
    seen: dict[str, list[str]] = {}
    for name, arm in arms.items():
        for note in getattr(getattr(arm, "inputs", None), "notes", None) or []:
            seen.setdefault(str(note), []).append(name)
    out = []
    for note, where in seen.items():
        if len(where) == len(arms):
            out.append(note)
        else:
            shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
            out.append(f"{note} (arms: {shown})")
    return out


def ignored(flag: str, needs: str, why: str = "") -> str:
    """``--discordant is ignored without --paired (...)``."""
    return f"{flag} is ignored without {needs}" + (f" ({why})" if why else "") + "."


def _num(v: float) -> str:
    return "inf" if v == float("inf") else "-inf" if v == float("-inf") else f"{v:g}"


def bracket_sentence(what: str, below: float, above: float, rate_of: dict, signed: bool = False) -> str:
    """``between +0 and +1 of Akari.resolve: +0 gives 49.8%, +1 gives 61.2%`` (or the grid
    point hit exactly). ``rate_of``: grid value -> measured win rate."""
    fmt = (lambda v: f"{v:+g}") if signed else (lambda v: f"{v:g}")
    if below == above:
        return f"exactly at {what} {fmt(below)} ({100 * rate_of[below]:.1f}%)"
    return (f"between {fmt(below)} and {fmt(above)} of {what}: {fmt(below)} gives "
            f"{100 * rate_of[below]:.1f}%, {fmt(above)} gives {100 * rate_of[above]:.1f}%")


def beyond_sentence(what: str, target: float, x: list, rates: list, increasing: bool, signed: bool = False,
                    label: str = "the target") -> str:
    """The answer lies beyond the grid: which way to extend it, and the nearest measured rate."""
    fmt = (lambda v: f"{v:+g}") if signed else (lambda v: f"{v:g}")
    hi_rate = target > max(rates)
    # where the rate is closest to the target: the high end of an increasing curve when the
    # target is above every rate, and so on
    extend_up = hi_rate == increasing
    end = x[-1] if extend_up else x[0]
    rate_end = rates[-1] if extend_up else rates[0]
    return (f"{label} {100 * target:.1f}% is {'above' if hi_rate else 'below'} every win rate measured over "
            f"{what} {fmt(x[0])} to {fmt(x[-1])} (nearest: {100 * rate_end:.1f}% at {fmt(end)}): extend the "
            f"grid {'above' if extend_up else 'below'} {fmt(end)} and run again")


def member_values(raw: dict, path: str) -> tuple[str | None, dict[str, float]]:
    """For ``Member.field...``: the member's side name and ``{other member on that side:
    value at the same field}`` (numbers only) from the scenario data ``raw``."""
    head, _, rest = path.partition(".")
    for side in raw.get("sides") or []:
        members = side.get("members") if isinstance(side, dict) else None
        if not isinstance(members, list) or head not in [m.get("name") for m in members if isinstance(m, dict)]:
            continue
        out = {}
        for m in members:
            if not isinstance(m, dict) or m.get("name") == head:
                continue
            v = m
            for seg in rest.split("."):
                v = v.get(seg) if isinstance(v, dict) else None
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[m["name"]] = float(v)
        return side.get("name"), out
    return None, {}


def jump_warnings(what: str, found: list[dict], raw: dict | None = None, offset: float = 0.0,
                  signed: bool = False) -> list[str]:
    """A warning per jump of :func:`sim.study.curve.jumps`, naming the likely threshold:
    an ally of the swept member whose same stat lies inside the step (a targeting or
    healing tie: ``sim rules`` lists the tie rules), else the kinds of threshold to look for.
    ``offset``: added to grid values to get the stat's own value (exchange rates sweep changes)."""
    fmt = (lambda v: f"{v:+g}") if signed else (lambda v: f"{v:g}")
    out = []
    _, others = member_values(raw or {}, what)
    field = what.rpartition(".")[2]
    for j in found:
        lo_v, hi_v = sorted((j["a"] + offset, j["b"] + offset))
        ties = [f"{n}'s {field} {v:g}" for n, v in others.items() if lo_v < v <= hi_v or lo_v <= v < hi_v]
        why = (f"inside it the stat meets {', '.join(ties)}: a policy comparing {field} changes its choice "
               "there (focus-weakest and heal pick the lowest, ties go to the first listed; `sim rules` lists "
               "each policy's tie rule)" if ties else
               "a rule or AI threshold likely sits there (a targeting tie, a heal_below or boost margin, a "
               "success threshold of the dice; `sim rules` lists each policy's tie rule)")
        ratio = "far more" if j["ratio"] == float("inf") else f"{j['ratio']:.1f}x"
        out.append(f"Jump in the curve of {what}: from {fmt(j['a'])} to {fmt(j['b'])} the win rate goes "
                   f"{100 * j['rate_a']:.1f}% -> {100 * j['rate_b']:.1f}% ({100 * j['step']:+.1f} points, "
                   f"{ratio} its neighbouring steps per unit); {why}. A value inside this step is the threshold's "
                   "place, not a smooth exchange rate.")
    return out
