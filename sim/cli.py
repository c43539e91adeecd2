"""The ``sim`` command: parses arguments, calls :mod:`sim.api`, prints.

Every expected failure (bad scenario, bad dice, bad options) prints one
paragraph to stderr and exits with status 2, without a traceback and
without writing anything. Set ``SIM_DEBUG=1`` to see tracebacks.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

EXIT_USAGE = 2
#: a study ran but could not answer its question (a calibrate target beyond the grid): its report says why
EXIT_UNANSWERED = 3


class CliError(Exception):
    """An error to print as one paragraph (exit status 2)."""


def _positive_int(text: str) -> int:
    try:
        v = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {v}")
    return v


def _dice_trials(text: str) -> int:
    """``sim dice --trials``: a whole number from 1 to :data:`sim.dice_report.MAX_TRIALS`."""
    from sim.dice_report import MAX_TRIALS

    v = _positive_int(text)
    if v > MAX_TRIALS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_TRIALS:,} rolls (10^9, a few minutes; the exact distribution is printed "
            f"beside them), got {v:,}")
    return v


def _seed(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < 0 or v >= 2**63:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 2^63-1, got {v}")
    return v


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _port(text: str) -> int:
    v = _int(text)
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535 (0: any free port), got {v}")
    return v


def _precision(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 0.005, got {text!r}") from None
    if not (0 < v < 0.5):
        raise argparse.ArgumentTypeError(f"expected a half-width between 0 and 0.5, got {v}")
    return v


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one paragraph, exit 2, no usage dump
        raise CliError(f"{self.prog}: {message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="sim", description="Balance workbench for magical-girl tabletop games: "
                "Monte Carlo fights with exact oracles.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    d = sub.add_parser("dice", help="exact and Monte Carlo distribution of a dice expression")
    d.add_argument("expr", help="e.g. 2d6!+3, 1d6+2, 5d10s")
    g = d.add_mutually_exclusive_group()
    g.add_argument("--target", type=_int, help="also P(total >= T)")
    g.add_argument("--vs", metavar="EXPR2", help="also P(EXPR beats EXPR2) under the 4.1 tie rules")
    d.add_argument("--trials", type=_dice_trials, default=1_000_000,
                   help="Monte Carlo rolls, 1 to 10^9 (default 10^6)")
    d.add_argument("--seed", type=_seed, default=0)
    d.add_argument("--json", action="store_true", help="print one JSON object")

    v = sub.add_parser("validate", help="check a scenario file without running it")
    v.add_argument("file")
    v.add_argument("--json", action="store_true")

    r = sub.add_parser("run", help="run a scenario and write tables, charts and report.html")
    r.add_argument("file")
    r.add_argument("--trials", type=_positive_int, help="trials per variant (default: the file's)")
    r.add_argument("--precision", type=_precision,
                   help="run until every win/loss/draw 95%% half-width is <= H (from 10,000 trials)")
    r.add_argument("--max-trials", type=_positive_int, help="hard cap per variant for --precision")
    r.add_argument("--seed", type=_seed, help="master seed (default: the file's)")
    r.add_argument("--workers", type=_positive_int, default=1, help="processes (joblib)")
    r.add_argument("--threads", type=_positive_int, help="numba threads per process")
    r.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the trials on a dask.distributed cluster: tcp://HOST:8786, or local:N "
                        "for N worker processes on this machine (default: here, joblib)")
    r.add_argument("--out", help="run directory to write (default results/<scenario>/<run-id>)")
    r.add_argument("--json", action="store_true", help="print the results as one JSON object")
    r.add_argument("--quiet", action="store_true", help="no progress bar, no summary text")
    r.add_argument("--no-write", action="store_true", help="print only; write no files")
    r.add_argument("--resume", action="store_true",
                   help="continue an interrupted run of the same file, seed and options from its checkpoint")
    r.add_argument("--progress", choices=("auto", "bar", "plain", "none"),
                   help="progress on stderr: a bar, plain lines every few seconds, or none "
                   "(default auto: a bar on a terminal, else plain lines; none with --quiet or --json)")

    rp = sub.add_parser("report", help="write the report of a finished run from its checkpoint")
    rp.add_argument("checkpoint", help="the .checkpoint-*.npz a run kept because its report could not be written")
    rp.add_argument("--out", help="run directory to write (default results/<scenario>/<run-id>)")
    rp.add_argument("--json", action="store_true", help="print the results as one JSON object")
    rp.add_argument("--quiet", action="store_true", help="no summary text")

    ru = sub.add_parser("rules", help="list a rule system's options and defaults")
    ru.add_argument("system")
    ru.add_argument("--json", action="store_true")

    c = sub.add_parser("catalog", help="list a rule system's catalog (talents...)")
    c.add_argument("system")
    c.add_argument("--json", action="store_true")

    pl = sub.add_parser("play", help="play one seeded game or fight and print a readable log")
    pl.add_argument("file")
    pl.add_argument("--seed", type=_seed, help="seed of this one game (default: the file's)")
    pl.add_argument("--variant", help="which variant (default: the first)")
    pl.add_argument("--log", action="store_true", help="print the turn-by-turn log (the default)")
    pl.add_argument("--trial", type=int, default=0, metavar="N",
                    help="which trial of `sim run --seed S` to play (default 0; mb41 and mb-draft)")
    pl.add_argument("--json", action="store_true", help="one JSON event a line (mb41 and mb-draft; docs/cli.md)")

    w = sub.add_parser("warmup", help="compile a rule system's kernels ahead of the first run (all by default)")
    w.add_argument("systems", nargs="*", metavar="SYSTEM", help="mb41, mb-draft, d10, cards (default: all)")
    w.add_argument("--tier2", action="append", default=[], metavar="SCENARIO",
                   help="compile the tier-2 builds of this scenario's structures (the 4.1 engine generated "
                        "for it, 2-3 minutes each; repeatable); with no SYSTEM given, only those")
    w.add_argument("--json", action="store_true", help="print one JSON object")

    _study_parsers(sub)

    sv = sub.add_parser("serve", help="the workbench: a local web page to edit a scenario, run it and compare runs")
    sv.add_argument("target", nargs="?", metavar="FILE|DIR",
                    help="the folder whose scenarios the page opens and saves (default: this one), or a "
                         "scenario file to open first")
    sv.add_argument("--port", type=_port, help="port on 127.0.0.1 (default: 8765 or the next free one; 0: any free port)")
    sv.add_argument("--no-browser", action="store_true", help="print the address; do not open a browser")

    b = sub.add_parser("bench", help="measure speed: raw dice, duels, ratio to plain Python, start-up")
    b.add_argument("--json", action="store_true")
    b.add_argument("--quick", action="store_true", help="smaller measurements (for tests)")
    b.add_argument("--no-start", action="store_true",
                   help="leave out the start times (the cold start compiles the quickstart in a fresh "
                        "numba cache: about a minute); their keys are null")
    return p


def _gigabytes(text: str) -> float:
    try:
        v = float(text.upper().removesuffix("GB").removesuffix("G"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of GB such as 8, got {text!r}") from None
    if not 0 < v <= 1e6:
        raise argparse.ArgumentTypeError(f"expected a number of GB above 0, got {text!r}")
    return v


def _rate(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number such as 0.6, got {text!r}") from None


def _study_parsers(sub) -> None:
    """``sim study`` and ``sim plan`` (issue 21; docs/studies.md)."""
    st = sub.add_parser("study", help="run the study: block of a scenario (paired comparison, talent "
                        "value and tiers, exchange rate, calibration) and write its report")
    st.add_argument("file")
    st.add_argument("--trials", type=_positive_int, help="trials per arm (default: the file's; "
                    "the starting count when the study stops by precision)")
    st.add_argument("--seed", type=_seed, help="master seed (default: the file's)")
    st.add_argument("--out", help="directory to write (default results/<scenario>/study-<run-id>)")
    st.add_argument("--no-write", action="store_true", help="print only; write no files")
    st.add_argument("--json", action="store_true", help="print the tables as one JSON object")
    st.add_argument("--scheduler", metavar="ADDRESS",
                    help="play the trials on a dask.distributed cluster: tcp://HOST:8786, or local:N "
                         "for N worker processes here (same tables; docs/distributed.md)")
    st.add_argument("--resume", action="store_true",
                    help="continue an interrupted study of the same file, seed and --trials from its checkpoint")
    st.add_argument("--progress", choices=("auto", "bar", "plain", "none"),
                    help="progress on stderr (as sim run; default auto, none with --quiet or --json)")
    st.add_argument("--quiet", action="store_true", help="no progress, no reading printed")
    st.add_argument("--max-memory", type=_gigabytes, metavar="GB",
                    help="memory the study's per-trial rows may take, in GB (default 4); a study that "
                         "would need more is refused before it plays")

    au = sub.add_parser("audit", help="value every entry of a catalog in reference encounters (talents, powers, cards)")
    au.add_argument("system", help="mb41, mb-draft, d10 or cards")
    au.add_argument("--encounters", nargs="+", metavar="PATH",
                    help="reference encounters: a directory or study files of kind audit (default: the bundled ones)")
    au.add_argument("--talents", metavar="FILE",
                    help="your own talents: a file with a talents: (d10: powers:, cards: cards:) block")
    au.add_argument("--only", nargs="+", metavar="NAME", help="value only these entries")
    au.add_argument("--trials", type=_positive_int, help="trials per arm (default: the encounters' trials:)")
    au.add_argument("--seed", type=_seed, help="master seed (default: each encounter's)")
    au.add_argument("--out", help="directory to write (default results/audit-<system>/study-<run-id>)")
    au.add_argument("--no-write", action="store_true", help="print only; write no files")
    au.add_argument("--json", action="store_true", help="print the tables as one JSON object")
    au.add_argument("--scheduler", metavar="ADDRESS",
                    help="play the trials on a dask cluster: tcp://host:8786 or local:N")
    au.add_argument("--resume", action="store_true",
                    help="continue an interrupted audit of the same system and options from its checkpoint "
                         "(Ctrl-C prints the exact command)")
    au.add_argument("--progress", choices=("auto", "bar", "plain", "none"),
                    help="progress with an ETA on stderr (as sim study; default auto, none with --quiet or --json)")
    au.add_argument("--quiet", action="store_true", help="no progress, no reading printed")

    pn = sub.add_parser("plan", help="how many trials a comparison of two win rates needs")
    pn.add_argument("--p1", type=_rate, required=True, help="win rate of arm A (or the one rate)")
    pn.add_argument("--p2", type=_rate, help="win rate of arm B: the effect to detect is p1 - p2")
    pn.add_argument("--alpha", type=_rate, default=0.05, help="two-sided test level (default 0.05)")
    pn.add_argument("--power", type=_rate, help="power (default 0.8)")
    pn.add_argument("--paired", action="store_true", help="arms on common random numbers (McNemar)")
    pn.add_argument("--discordant", type=_rate, help="with --paired: share of trials where exactly one arm wins")
    pn.add_argument("--half-width", type=_rate, help="plan for an interval this narrow instead of power")
    pn.add_argument("--comparisons", type=_positive_int, default=1,
                    help="comparisons sharing alpha (a tier list of K entries makes K(K-1)/2): each planned "
                         "at alpha/K (Bonferroni; enough for Holm)")
    pn.add_argument("--json", action="store_true", help="print one JSON object")


# ---------------------------------------------------------------- commands


def cmd_dice(a) -> int:
    from sim.dice_report import dice_summary, format_dice_text

    s = dice_summary(a.expr, target=a.target, vs=a.vs, trials=a.trials, seed=a.seed)
    print(json.dumps(s) if a.json else format_dice_text(s))
    return 0


def cmd_validate(a) -> int:
    from sim import api

    study = api.validate_study(a.file)  # a study: block is checked too (None: no block)
    if study is not None and study["whole_file"]:
        print(json.dumps(study) if a.json else f"{a.file}: valid {study['kind']} study '{study['name']}'")
        return 0
    loaded = api.load(a.file)
    cat = loaded.data_catalog()  # what a talents:/powers: block edits, invents and what is not played
    info = {"file": a.file, "name": loaded.name, "system": loaded.system,
            "variants": [name for name, _ in loaded.variants], "valid": True,
            "notes": cat.describe() if cat is not None else []}
    if study is not None:
        info["study"] = study["summary"]
    if a.json:
        print(json.dumps(info))
    elif study is not None:
        print(f"{a.file}: valid {loaded.system} scenario '{loaded.name}'; {study['summary']['sentence']} "
              "(variants: and sweep: are not used by sim study)")
        sm = study["summary"]
        if "streams" in sm:
            print(f"  preflight: every arm it would play built and checked, nothing played: {sm['streams']} arms "
                  f"and replays, {sm['trials_needed']:,} trials in all"
                  + (" at most (it stops by precision)" if sm["trials_at_most"] else ""))
    else:
        print(f"{a.file}: valid {loaded.system} scenario '{loaded.name}' with "
              f"{len(loaded.variants)} variant(s): {', '.join(info['variants'])}")
        if study is not None:
            print(f"  study {study['kind']}: every arm built and checked; {study['arms']} arms and replays, "
                  f"{study['trials']:,} trials in all" + (" at most (it stops by precision)"
                                                          if study["trials_at_most"] else ""))
    if not a.json:
        for note in info["notes"]:
            print(f"  note: {note}")
    return 0


def _ignored_run_flags(a) -> list[str]:
    """Flags of ``sim run`` that change nothing in the combination given."""
    out = []
    if a.max_trials is not None and a.precision is None:
        from sim import api

        if getattr(api.load(a.file).base, "precision", None) is None:
            out.append("--max-trials is ignored without --precision (nor precision: in the file): it caps a "
                       "run that stops by precision")
    if a.resume and a.no_write:
        out.append("--resume is ignored with --no-write: a run that writes nothing keeps no checkpoint")
    return out


def cmd_run(a) -> int:
    from sim import api

    for w in _ignored_run_flags(a):
        print(f"warning: {w}", file=sys.stderr)
    progress = a.progress or ("none" if a.quiet or a.json else "auto")
    result, out = api.run(a.file, trials=a.trials, precision=a.precision, seed=a.seed, workers=a.workers,
                          threads=a.threads, max_trials=a.max_trials, out=a.out, write=not a.no_write,
                          progress=progress, resume=a.resume, scheduler=a.scheduler)
    return _print_result(a, result, out)


def cmd_report(a) -> int:
    from sim import api

    result, out = api.report(a.checkpoint, out=a.out)
    if not hasattr(result, "summary"):  # a study's checkpoint
        return _print_study(a, result)
    return _print_result(a, result, out)


def _print_result(a, result, out) -> int:
    """Print a run's result: one JSON object (``--json``) or the summary and the report path."""
    if a.json:
        d = result.to_dict()
        d.pop("tables", None)
        if out is not None:
            d["out_dir"] = str(out)
        print(json.dumps(d))
        return 0
    if not a.quiet:
        print(_summary_text(result))
    if out is not None:
        print(f"report: {out / 'report.html'}")
    return 0


def _summary_text(result) -> str:
    first = result.side_names[0] if result.side_names else "first side"
    episode = "scenes_won" in result.summary.columns
    what = " (episodes: every scene won)" if episode else ""
    lines = [f"{result.scenario} ({result.system}, seed {result.seed}): win rate of {first}{what}"]
    for r in result.summary.to_dict(orient="records"):
        extra = ""
        if episode and r.get("scenes_won") == r.get("scenes_won"):  # not NaN
            extra = f"  scenes won {r['scenes_won']:.2f}/{int(r['scenes'])}"
        lines.append(
            f"  {r['variant']:<28} win {100 * r['win_rate']:5.1f}% [{100 * r['win_lo']:.1f}, {100 * r['win_hi']:.1f}]"
            f"  loss {100 * r['loss_rate']:5.1f}%  draw {100 * r['draw_rate']:5.1f}%"
            f"  rounds {r['mean_rounds']:.2f}{extra}  (n={r['trials']:,})")
    for note in result.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def cmd_rules(a) -> int:
    from sim import api

    from sim.tie_rules import tie_rules

    rows = api.rules(_system(a.system))
    ties = tie_rules(a.system)
    if a.json:
        print(json.dumps({"system": a.system, "options": rows, "tie_rules": ties}))
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        default = json.dumps(r["default"]) if not isinstance(r["default"], str) else r["default"]
        print(f"{r['name']:<{width}}  default {default:<18} allowed {r['allowed']}")
        print(f"{'':<{width}}  {r['note']}")
    if ties:
        print("\ntargeting policies and their tie rules (AI, not rule options):")
        for t in ties:
            print(f"  {t['policy']}: {t['rule']}")
    return 0


def cmd_catalog(a) -> int:
    from sim.systems import get_system

    mod = get_system(_system(a.system))
    rows = list(mod.catalog_rows()) if hasattr(mod, "catalog_rows") else []
    if a.json:
        print(json.dumps({"system": a.system, "entries": rows}))
        return 0
    def cell(v) -> str:
        return "" if v is None else str(v)

    for r in rows:
        sim_flag = "yes" if r.get("simulated") else "no"
        # the uses the engine plays when it plays the row (the book's text is in the line below)
        uses = r["simulated_as"]["uses"].split(" (")[0] if r.get("simulated_as") else cell(r.get("uses"))
        print(f"{r['name']:<24} {cell(r.get('group')):<16} {cell(r.get('action')):<10} "
              f"cost {cell(r.get('cost')) or '-':<4} {cell(r.get('cost_stat')):<8} "
              f"uses {uses or '-':<12} simulated: {sim_flag}\n    {cell(r.get('effect'))}")
        if r.get("simulated_as"):  # what the engine plays, and where each number comes from
            print(f"    {_simulated_line(a.system, r['simulated_as'])}")
    return 0


def _simulated_line(system: str, sim: dict) -> str:
    """``sim catalog``'s line of what the engine plays for a row (mb41, mb-draft, d10)."""
    if system == "d10":
        from sim.systems.d10.catalog.simulated import line

        return line(sim)
    from sim.systems.mb41.simulated import line

    return line(sim, system)


def cmd_play(a) -> int:
    from sim import api

    try:
        print(api.play(api.load(a.file), variant=a.variant, seed=a.seed, trial=a.trial, as_json=a.json))
    except api.PlayError as e:
        raise CliError(str(e)) from None
    return 0


def cmd_study(a) -> int:
    from sim import api
    from sim.study.run import StudyError

    progress = a.progress or ("none" if a.quiet or a.json else "auto")
    try:
        res = api.study(a.file, trials=a.trials, seed=a.seed, out=a.out, write=not a.no_write,
                        scheduler=a.scheduler, resume=a.resume, progress=progress, max_memory=a.max_memory)
    except StudyError as e:
        raise CliError(str(e)) from None
    return _print_study(a, res)


def _print_study(a, res) -> int:
    """Print a study's result: one JSON object (``--json``) or its readings and the report path."""
    if a.json:
        d = {"scenario": res.name, "system": res.system, "seed": res.seed, "trials": res.trials,
             "studies": [s.record() for s in res.sections],
             "out_dir": str(res.out_dir) if res.out_dir else None}
        print(json.dumps(d, default=float))
        return _study_status(res)
    for s in res.sections if not getattr(a, "quiet", False) else ():
        print(s.title)
        for w in s.warnings:
            print(f"  warning: {w}")
        print(f"  {s.reading}")
        if s.assumptions:
            print(f"  assumptions ({len(s.assumptions)}): " + "; ".join(s.assumptions[:4])
                  + (" ... (all in the report)" if len(s.assumptions) > 4 else ""))
    if res.out_dir is not None:
        print(f"report: {res.out_dir / 'report.html'}")
    return _study_status(res)


def _study_status(res) -> int:
    """:data:`EXIT_UNANSWERED` when a study could not answer its question (a calibrate target
    beyond the grid...), each reason on stderr; else 0."""
    missing = [m for s in res.sections for m in s.unanswered]
    for m in missing:
        print(f"error: {m}", file=sys.stderr)
    return EXIT_UNANSWERED if missing else 0


def cmd_audit(a) -> int:
    from sim import api
    from sim.audit import AuditError
    from sim.study.run import StudyError

    progress = a.progress or ("none" if a.quiet or a.json else "auto")
    if a.resume and a.no_write:
        print("warning: --resume is ignored with --no-write: an audit that writes nothing keeps no checkpoint",
              file=sys.stderr)
    try:
        res = api.audit(a.system, encounters=a.encounters, talents=a.talents, only=a.only, trials=a.trials,
                        seed=a.seed, out=a.out, write=not a.no_write, scheduler=a.scheduler,
                        progress=progress, resume=a.resume and not a.no_write)
    except (AuditError, StudyError) as e:
        raise CliError(f"sim audit: {e}") from None
    if a.json:
        print(json.dumps({"audit": res.system, "trials": res.trials, "studies": [s.record() for s in res.sections],
                          "out_dir": str(res.out_dir) if res.out_dir else None}, default=float))
        return 0
    if a.quiet:
        if res.out_dir is not None:
            print(f"report: {res.out_dir / 'report.html'}")
        return 0
    head = res.sections[0]
    for w in head.warnings:
        print(f"warning: {w}")
    print(head.reading)
    if res.out_dir is not None:
        print(f"report: {res.out_dir / 'report.html'}")
    return 0


def cmd_plan(a) -> int:
    from sim import api
    from sim.study.plan import PlanError, format_plan

    try:
        r = api.plan(a.p1, a.p2, alpha=a.alpha, power=a.power, paired=a.paired,
                     discordant=a.discordant, half_width=a.half_width, comparisons=a.comparisons)
    except PlanError as e:
        raise CliError(f"sim plan: {e}") from None
    for w in r["warnings"]:
        print(f"warning: {w}", file=sys.stderr)
    print(json.dumps(r) if a.json else format_plan(r))
    return 0


def cmd_bench(a) -> int:
    from sim.bench import format_bench, run_bench

    res = run_bench(quick=a.quick, start=not a.no_start)
    print(json.dumps(res) if a.json else format_bench(res))
    return 0


def cmd_warmup(a) -> int:
    from sim.systems import names
    from sim.warmup import warm, warm_tier2

    systems = [_system(s) for s in a.systems] or ([] if a.tier2 else names())
    rows = warm(systems)
    builds = warm_tier2(a.tier2) if a.tier2 else []
    if a.json:
        print(json.dumps({"warmed": rows, **({"tier2": builds} if a.tier2 else {})}))
    return 1 if any(b["status"] == "failed" for b in builds) else 0


def cmd_serve(a) -> int:
    from sim.serve import ServeError, serve

    try:
        return serve(a.target, port=a.port, open_browser=not a.no_browser)
    except ServeError as e:
        raise CliError(f"sim serve: {e}") from None


def _system(name: str) -> str:
    from sim.scenario.suggest import suggest
    from sim.systems import names

    if name not in names():
        raise CliError(f"unknown system '{name}'.{suggest(name, names())} Known: {', '.join(names())}")
    return name


COMMANDS = {"dice": cmd_dice, "validate": cmd_validate, "run": cmd_run, "report": cmd_report, "rules": cmd_rules,
            "catalog": cmd_catalog, "bench": cmd_bench, "play": cmd_play,
            "warmup": cmd_warmup, "study": cmd_study, "plan": cmd_plan, "audit": cmd_audit,
            "serve": cmd_serve}


def _interrupted(e: KeyboardInterrupt) -> str:
    """The paragraph of a Ctrl-C: what was kept and how to go on (:meth:`RunCancelled.message`)."""
    message = getattr(e, "message", None)
    if callable(message):
        return message()
    return "interrupted; nothing was written"


def main(argv=None) -> int:
    """``sim``: run a command; exit 0, 2 for bad input, 130 for Ctrl-C (also while the
    modules load), 1 for an internal error (a short line unless ``SIM_DEBUG`` is set)."""
    try:
        return _main(argv)
    except KeyboardInterrupt as e:
        print(_interrupted(e), file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sim play ... | head`: the reader has gone; say nothing more
        _quiet_stdout()
        return 141


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush of a closed pipe raises
    nothing (the Python docs' recipe for SIGPIPE, signal module)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _main(argv) -> int:
    from sim.dice import DiceError
    from sim.report.atomic import OutputExistsError, OutputPathError, ReportWriteError
    from sim.ruleset import RuleError
    from sim.runner import RunError
    from sim.scenario import ScenarioError

    try:
        args = build_parser().parse_args(argv)
        if not args.command:
            build_parser().print_help()
            return EXIT_USAGE
        return COMMANDS[args.command](args)
    except (CliError, ScenarioError, DiceError, RuleError, RunError, OutputExistsError, OutputPathError,
            ReportWriteError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except FileNotFoundError as e:
        print(f"error: no such file: {e.filename}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as e:
        print(_interrupted(e), file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # main's: the reader of a pipe has gone, not an internal error
    except Exception as e:  # an unexpected failure: short message unless debugging
        if os.environ.get("SIM_DEBUG"):
            raise
        print(f"error: internal error {type(e).__name__}: {e} (set SIM_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
