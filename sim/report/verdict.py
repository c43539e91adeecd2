"""The verdict: one paragraph, written from the numbers, that opens the report.

It names the variant that wins most often with its 95% interval, how far it
stands above the one that wins least, which variants it cannot be told apart
from at this trial count (intervals overlap), and how many fights hit the
round cap. Plain text (the page escapes it).
"""
from __future__ import annotations

from .fmt import DEFAULT_TERMS, format_number, format_rate, missing

__all__ = ["verdict"]


def _rate(rec, key="win") -> str:
    return format_rate(rec.get(f"{key}_rate"), rec.get(f"{key}_lo"), rec.get(f"{key}_hi"))


def _names(names: list, limit: int = 4) -> str:
    shown = [f"“{n}”" for n in names[:limit]]
    if len(names) > limit:
        shown.append(f"{len(names) - limit} more")
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _draws(recs: list, t: dict) -> str:
    worst = max(recs, key=lambda r: r.get("draw_rate") or 0)
    d = worst.get("draw_rate") or 0
    if d < 0.0005:
        return ""
    where = f" (“{worst['variant']}”)" if len(recs) > 1 else ""
    return (f" {'Up to ' if len(recs) > 1 else ''}{100 * d:.1f}% of {t['fights']}{where} "
            f"were still running at the {t['round']} cap and count as draws.")


def _one(rec: dict, side: str, t: dict) -> str:
    text = (f"{side[0].upper()}{side[1:]} wins {_rate(rec)} of {format_number(int(rec['trials']))} {t['fights']} "
            f"and loses {_rate(rec, 'loss')}.")
    if not missing(rec.get("mean_rounds")):
        text += f" A {t['fight']} lasts {float(rec['mean_rounds']):.1f} {t['rounds']} on average."
    return text


def _many(recs: list, side: str, t: dict) -> str:
    ranked = sorted(recs, key=lambda r: -(r.get("win_rate") or 0))
    best, worst = ranked[0], ranked[-1]
    gap = 100 * ((best.get("win_rate") or 0) - (worst.get("win_rate") or 0))
    text = (f"“{best['variant']}” wins most often for {side}: {_rate(best)}, "
            f"{gap:.1f} points above “{worst['variant']}” ({_rate(worst)}), "
            f"the lowest of the {len(recs)} variants.")
    lo = best.get("win_lo")
    ties = [r["variant"] for r in ranked[1:]
            if not missing(lo) and not missing(r.get("win_hi")) and r["win_hi"] >= lo]
    if ties:
        text += (f" At this trial count it cannot be told apart from {_names(ties)} "
                 "(their 95% intervals overlap).")
    elif len(ranked) > 2:
        second = ranked[1]
        text += (f" The runner-up, “{second['variant']}”, wins {_rate(second)}; "
                 "the intervals do not overlap.")
    return text


def verdict(summary, side_names: list, terms: dict | None = None) -> str:
    """The opening paragraph for a run's summary table (plain text)."""
    t = {**DEFAULT_TERMS, **(terms or {})}
    if summary is None or summary.empty:
        return "The run has no results."
    recs = summary.to_dict(orient="records")
    side = f"side “{side_names[0]}”" if side_names else "the first side"
    text = _one(recs[0], side, t) if len(recs) == 1 else _many(recs, side, t)
    return text + _draws(recs, t)
