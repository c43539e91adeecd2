#!/usr/bin/env python
"""Instructions and branches per fight, per compiled function: a count, not a timing.

Usage (needs ``valgrind``; ``apt-get install valgrind``)::

    .venv/bin/python tools/kernel_instructions.py [SCENARIO] [--trials N] [--variant K]
        [--top 25] [--blocks FUNC] [--save FILE] [--against FILE] [--tier 1|2] [--lines]

Default scenario: ``scenarios/mb41/party-vs-boss.yaml`` (the ``sim bench``
gridless party fight). The scenario's ``simulate`` plays ``N`` trials (default
2,000) on one numba thread under valgrind's ``callgrind`` with its branch
simulator, and every instruction executed in the package's compiled code is
attributed to its function (the map of :mod:`tools.kernel_profile`). Printed,
per fight played: instructions, conditional branches, and branches
callgrind's simple predictor misses (a real core misses fewer: read it as
"which branches depend on the dice", not as a cycle count).

Why a count. A timing of one build swings by 3-5% on this machine
(``tools/ab_speed.py`` needs several alternated pairs to see 2%). The same
seed plays the same fights, so the instruction count of a build is exact and
repeatable: ``--save base.json`` on one build and ``--against base.json`` on
the next prints the change per function. On this machine the 4.1 party fight
runs at about 2.9 instructions a cycle (docs/performance.md), so fewer
instructions is most of what makes it faster.

valgrind 3.19 does not know AVX-512, so the kernels are compiled for a
generic x86-64 (``NUMBA_CPU_NAME=generic``) in a numba cache of their own,
``$MGSIM_PROFILE_DIR/numba-generic`` (default ``/tmp/mgsim-kernel-profile``);
the first run compiles there (outside valgrind, about a minute), later runs
load it. ``--blocks FUNC`` lists the function's costliest straight-line runs
of instructions with how often each ran per fight.

``--lines`` counts by *source*: per Python function and per line where the code was
written, inlined code included (a tier-2 build inlines nearly everything into
``fight_on``, so the per-function table says little there). The kernels are compiled
with line tables (``MGSIM_LINEINFO=1``: numba's ``debug`` without bounds checks or
extended lifetimes, about 6% more instructions than the plain build) in a cache of
their own, ``$MGSIM_PROFILE_DIR/numba-lines``, and each instruction's innermost source
frame is read from the object code (``addr2line -i``). Lines of a tier-2 build are the
generated file's.

A development tool; nothing in ``sim`` imports it.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_profile as kp  # noqa: E402  (the symbol map and the disassembler)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "scenarios" / "mb41" / "party-vs-boss.yaml"
WORK = Path(os.environ.get("MGSIM_PROFILE_DIR", "/tmp/mgsim-kernel-profile"))
WARM = 64  # trials played before the symbol map is written (they load the kernels)
EVENTS = ("Ir", "Bc", "Bcm", "Bi", "Bim")


def child(scenario: str, trials: int, variant: int, tier: int = 1) -> None:
    """Play ``WARM`` trials (loading every kernel), write the symbol map, play ``trials`` more."""
    kp.WORK = WORK
    kp._stash_objects()
    import numba

    numba.set_num_threads(1)
    from sim.rng import stream_key
    from sim.scenario import load_scenario

    loaded = load_scenario(scenario)
    mod = loaded.module
    inp = mod.compile(loaded.variants[variant][1])
    key = stream_key(int(getattr(loaded.base, "seed", 0) or 0))
    how = {"tier": tier} if tier != 1 else {}  # tier 2: the engine generated for the structure
    mod.simulate(inp, 0, WARM, key, **how)
    disps = [v for m in list(sys.modules.values())
             if m and getattr(m, "__name__", "").startswith(("sim.", "mgsim_t2_"))
             for v in vars(m).values() if isinstance(v, numba.core.registry.CPUDispatcher) and v.overloads]
    kp._write_map(disps)
    if trials > 0:
        mod.simulate(inp, WARM, trials, key, **how)


def _symbols():
    syms = []
    for line in (WORK / "symbols.txt").read_text().splitlines():
        a, s, o, p, n = line.split()
        syms.append((int(a, 16), int(s, 16), int(o, 16), p, n))
    syms.sort()
    return syms, [s[0] for s in syms]


def parse(out: Path):
    """Self cost per instruction of the package's compiled code: ``{(function, object,
    offset): [Ir, Bc, Bcm, Bi, Bim]}`` (callgrind's ``--dump-instr`` lines; the line after
    a ``calls=`` line is the call's inclusive cost, skipped)."""
    syms, starts = _symbols()
    cost = collections.defaultdict(lambda: [0] * len(EVENTS))
    skip = False
    with out.open() as fh:
        for line in fh:
            if line.startswith("calls="):
                skip = True
                continue
            if not line.startswith("0x"):
                skip = False
                continue
            if skip:
                skip = False
                continue
            parts = line.split()
            ip = int(parts[0], 16)
            k = bisect.bisect_right(starts, ip) - 1
            if k < 0 or ip >= syms[k][0] + syms[k][1]:
                continue
            a, _, o, p, n = syms[k]
            row = cost[(kp._short(n), p, o + ip - a)]
            for q, v in enumerate(parts[2:2 + len(EVENTS)]):
                row[q] += int(v)
    return cost


def per_function(cost, fights: int) -> dict:
    fn = collections.defaultdict(lambda: [0.0] * len(EVENTS))
    for (name, _, _), v in cost.items():
        for q in range(len(EVENTS)):
            fn[name][q] += v[q] / fights
    return {k: v for k, v in fn.items()}


def show(fn: dict, top: int, against: dict | None) -> None:
    tot = [sum(v[q] for v in fn.values()) for q in range(len(EVENTS))]
    print(f"per fight: {tot[0]:,.0f} instructions, {tot[1]:,.0f} conditional branches "
          f"({tot[2]:,.0f} missed by callgrind's predictor), {tot[3]:,.0f} indirect ({tot[4]:,.0f} missed)")
    if against:
        base = sum(v[0] for v in against.values())
        print(f"against the saved run: {base:,.0f} instructions a fight, change {tot[0] / base - 1:+.2%}")
    print(f"\n{'function':40s} {'instr':>9s} {'share':>6s} {'branches':>9s} {'missed':>7s}" +
          (f" {'change':>9s}" if against else ""))
    names = sorted(set(fn) | set(against or {}), key=lambda k: -fn.get(k, [0])[0])
    for name in names[:top]:
        v = fn.get(name, [0.0] * len(EVENTS))
        line = f"{name[:40]:40s} {v[0]:9,.0f} {v[0] / tot[0]:6.1%} {v[1]:9,.0f} {v[2]:7,.0f}"
        if against:
            line += f" {v[0] - against.get(name, [0.0])[0]:+9,.0f}"
        print(line)


def blocks(cost, name: str, fights: int, top: int) -> None:
    """The costliest straight-line runs of ``name``: consecutive instructions that ran
    equally often (a basic block, give or take), with the calls they make."""
    rows = {off: v for (n, p, off), v in cost.items() if n == name}
    if not rows:
        print(f"\nnothing ran in {name}")
        return
    path = next(p for (n, p, _) in cost if n == name)
    offs, info = kp._disassemble([path])[path]
    i0 = bisect.bisect_left(offs, min(rows))
    runs, cur = [], None
    for i in range(i0, len(offs)):
        if offs[i] > max(rows):
            break
        if offs[i] not in rows:
            continue
        c = rows[offs[i]][0] / fights
        if cur is not None and cur[1] == c and cur[3] == i - 1:
            cur[2] += 1
            cur[3] = i
        else:
            if cur is not None:
                runs.append(cur)
            cur = [i, c, 1, i]
    runs.append(cur)
    print(f"\n{name}: costliest runs (instructions a fight = times run x length; @ index in the function)")
    for i, c, n, j in sorted(runs, key=lambda r: -r[1] * r[2])[:top]:
        calls = sorted({kp._short(info[q][2]) for q in range(i, j + 1) if info[q][2]})
        print(f"  {c * n:8,.0f}  {c:7.1f} x {n:3d}  @{i - i0:<5d} {info[i][0]} {info[i][1][:36]:36s}"
              f" {' '.join(calls)[:60]}")


def lines(cost, fights: int, top: int) -> None:
    """Instructions per Python function and per source line, inlined code included: each
    instruction's innermost source frame, from the line tables a ``MGSIM_LINEINFO`` build
    writes into its object code (``addr2line -i``)."""
    by_obj = collections.defaultdict(list)
    for (_, path, off), v in cost.items():
        by_obj[path].append((off, v[0]))
    fn = collections.Counter()
    line = collections.Counter()
    for path, rows in by_obj.items():
        query = "".join(f"{off:x}\n" for off, _ in rows)
        out = subprocess.run(["addr2line", "-a", "-f", "-i", "-e", path], input=query, capture_output=True,
                             text=True, check=True).stdout.splitlines()
        # -a: each address's record starts with the address, then (function, file:line) per
        # frame, innermost first
        starts = [q for q, text in enumerate(out) if text.startswith("0x")]
        for (off, ir), q in zip(rows, starts):
            name, where = out[q + 1], out[q + 2]
            where = "/".join(where.split(" (")[0].split("/")[-2:])  # folder/file.py:line
            fn[f"{where.split(':')[0]}:{kp._short(name).split('.')[-1]}"] += ir / fights
            line[where] += ir / fights
    tot = sum(fn.values())
    print(f"\nby source function (inlined code counted where it was written): {tot:,.0f} a fight")
    for name, v in fn.most_common(top):
        print(f"  {v:9,.0f} {v / tot:6.1%}  {name}")
    print("\nby source line")
    for where, v in line.most_common(top):
        print(f"  {v:9,.0f} {v / tot:6.1%}  {where}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", nargs="?", default=str(DEFAULT))
    ap.add_argument("--trials", type=int, default=2000)
    ap.add_argument("--variant", type=int, default=0)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--blocks", action="append", default=[], metavar="FUNC",
                    help="also the costliest straight-line runs of this function (e.g. kernel.p_attack)")
    ap.add_argument("--save", metavar="FILE", help="write the per-function counts (JSON)")
    ap.add_argument("--against", metavar="FILE", help="print the change from a saved run")
    ap.add_argument("--tier", type=int, choices=(1, 2), default=1,
                    help="1: the general engine (default); 2: the engine generated for the scenario's "
                         "structure (sim/systems/mb41/tier2.py)")
    ap.add_argument("--lines", action="store_true",
                    help="also instructions per source function and line, inlined code included (a build "
                         "with line tables, MGSIM_LINEINFO, in a numba cache of its own)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.scenario, args.trials, args.variant, args.tier)
        return
    if shutil.which("valgrind") is None:
        sys.exit("kernel_instructions: needs valgrind (apt-get install valgrind)")
    WORK.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, NUMBA_NUM_THREADS="1", NUMBA_CPU_NAME="generic",
               NUMBA_CACHE_DIR=str(WORK / ("numba-lines" if args.lines else "numba-generic")),
               OPENBLAS_NUM_THREADS="1")
    if args.lines:
        env["MGSIM_LINEINFO"] = "1"
    me = [sys.executable, __file__, args.scenario, "--variant", str(args.variant), "--tier", str(args.tier),
          "--child"]
    # compile (or load) outside valgrind: a few trials, so that procedures compiled at their first
    # call (a hex turn's rarer slots) are not compiled under valgrind, 50 times slower
    subprocess.run(me + ["--trials", "50"], env=env, check=True)
    out = WORK / "callgrind.out"
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--branch-sim=yes", "--compress-pos=no",
           "--compress-strings=no", f"--callgrind-out-file={out}", "--smc-check=all-non-file"]
    print(f"playing {args.trials:,} trials of {args.scenario} under callgrind...", file=sys.stderr, flush=True)
    subprocess.run(cmd + me + ["--trials", str(args.trials)], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    fights = WARM + args.trials
    cost = parse(out)
    fn = per_function(cost, fights)
    against = json.loads(Path(args.against).read_text())["per_fight"] if args.against else None
    show(fn, args.top, against)
    for name in args.blocks:
        blocks(cost, name, fights, args.top)
    if args.lines:
        lines(cost, fights, args.top)
    if args.save:
        Path(args.save).write_text(json.dumps({"scenario": args.scenario, "variant": args.variant,
                                               "fights": fights, "events": EVENTS, "per_fight": fn}, indent=1))


if __name__ == "__main__":
    main()
