#!/usr/bin/env python
"""Where a numba kernel's time goes: perf samples attributed to compiled functions.

Usage (needs Linux ``perf``; ``apt-get install linux-perf``)::

    .venv/bin/python tools/kernel_profile.py [SCENARIO] [--trials N] [--variant K] [--top 25]

Default scenario: ``scenarios/mb41/party-vs-boss-hex.yaml`` (the ``sim bench``
party fight). The scenario's ``sim.systems.<system>.simulate`` is run once to
compile (or load from the cache), then ``N`` trials on one numba thread under
``perf record``. numba's machine code has no symbols perf can see, so the child
writes ``/tmp/perf-<pid>.map`` (the format perf reads for JIT code) from the
object code of the compiled library: every function numba linked in, with its
address and size (``nm -S``), so each sample lands on a function name.

Printed:

* self time per compiled function (after LLVM's inlining: a function listed is
  one that stayed a call);
* the share of samples on argument set-up: runs of ``push`` / stack stores
  before a ``call``. numba passes each array as 5 + 2*ndim machine words and a
  tuple of arrays flattened, so a call that passes every state array (the mb41
  kernels pass ~25 arrays) costs hundreds of stack stores;
* the caller -> callee pairs that spend the most on that set-up: the calls worth
  gating behind a cheap inline check, or not making at all.

The object files and ``perf.data`` go to ``$MGSIM_PROFILE_DIR`` (default
``/tmp/mgsim-kernel-profile``): give two profiles run at once their own.

A development tool; nothing in ``sim`` imports it.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "scenarios" / "mb41" / "party-vs-boss-hex.yaml"
WORK = Path(os.environ.get("MGSIM_PROFILE_DIR", "/tmp/mgsim-kernel-profile"))


def _stash_objects() -> None:
    """Keep every library's object code (numba drops it once loaded)."""
    from numba.core import codegen

    orig = codegen.CPUCodeLibrary._set_compiled_object

    def keep(self, value):
        self._mgsim_object = value
        return orig(self, value)

    codegen.CPUCodeLibrary._set_compiled_object = keep


def _write_map(dispatchers) -> Path:
    """``/tmp/perf-<pid>.map`` and ``WORK/symbols.txt`` (address, size, offset, object, name)."""
    rows, seen = [], set()
    for k, disp in enumerate(dispatchers):
        for j, cres in enumerate(disp.overloads.values()):
            lib = cres.library
            obj = getattr(lib, "_mgsim_object", None)
            if obj is None:
                obj = lib.serialize_using_object_code()[2][0]
            path = WORK / f"lib{k}_{j}.o"
            path.write_bytes(obj)
            out = subprocess.run(["nm", "-S", "--defined-only", str(path)], capture_output=True,
                                 text=True, check=True).stdout
            engine = lib._codegen._engine
            for line in out.splitlines():
                parts = line.split()
                if len(parts) != 4 or parts[2] not in ("T", "t", "W", "w"):
                    continue
                try:
                    addr = engine.get_function_address(parts[3])
                except Exception:  # noqa: BLE001 - a symbol the engine does not export
                    continue
                if addr and addr not in seen:
                    seen.add(addr)
                    rows.append((addr, int(parts[1], 16), int(parts[0], 16), str(path), parts[3]))
    Path(f"/tmp/perf-{os.getpid()}.map").write_text(
        "".join(f"{a:x} {s:x} {n}\n" for a, s, _, _, n in rows))
    (WORK / "symbols.txt").write_text("".join(f"{a:x} {s:x} {o:x} {p} {n}\n" for a, s, o, p, n in rows))
    return WORK / "symbols.txt"


def child(scenario: str, trials: int, variant: int) -> None:
    _stash_objects()
    from sim.rng import stream_key
    from sim.scenario import load_scenario

    loaded = load_scenario(scenario)
    mod = loaded.module
    inp = mod.compile(loaded.variants[variant][1])
    key = stream_key(int(getattr(loaded.base, "seed", 0) or 0))
    mod.simulate(inp, 0, 2048, key)  # compile or load from the cache
    import numba

    disps = [v for m in list(sys.modules.values()) if m and getattr(m, "__name__", "").startswith("sim.")
             for v in vars(m).values() if isinstance(v, numba.core.registry.CPUDispatcher) and v.overloads]
    _write_map(disps)
    print(f"profiling {trials:,} trials of {scenario} (variant {variant})", flush=True)
    mod.simulate(inp, 0, trials, key)


def _short(name: str) -> str:
    s, out = name[3:] if name.startswith("_ZN") else name, []
    while s and s[0].isdigit():
        k = re.match(r"\d+", s).group()
        n = int(k)
        out.append(s[len(k):len(k) + n])
        s = s[len(k) + n:]
    return ".".join(out[-2:]) if out else name[:60]


def _disassemble(paths):
    """Per object: sorted instruction offsets and ``[mnemonic, operands, relocation symbol]``."""
    dis = {}
    for p in paths:
        text = subprocess.run(["objdump", "-d", "-r", "--no-show-raw-insn", p], capture_output=True,
                              text=True, check=True).stdout
        offs, info = [], []
        for line in text.splitlines():
            m = re.match(r"\s+([0-9a-f]+):\s+R_X86_64_\S+\s+(\S+)", line)
            if m and info:
                info[-1][2] = m.group(2)
                continue
            m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", line)
            if m:
                offs.append(int(m.group(1), 16))
                info.append([m.group(2), m.group(3), None])
        dis[p] = (offs, info)
    return dis


def annotate(name, counts, syms, starts, dis, jit, top):
    """The hottest instructions of compiled function ``name`` (its short name), each
    with the calls near it (relocations name the callee) to place it in the source."""
    per = collections.Counter()
    where = None
    for ip, c in counts.items():
        k = bisect.bisect_right(starts, ip) - 1
        if k < 0 or ip >= syms[k][0] + syms[k][1] or _short(syms[k][4]) != name:
            continue
        a, size, o, p, n = syms[k]
        offs, info = dis[p]
        i = bisect.bisect_right(offs, o + ip - a) - 1
        per[i] += c
        where = (p, o, size)
    if where is None:
        print(f"\nno samples in {name}")
        return
    p, o, size = where
    offs, info = dis[p]
    lo = bisect.bisect_left(offs, o)
    hi = bisect.bisect_left(offs, o + size)
    tot = sum(per.values())
    print(f"\n{name}: {tot / max(jit, 1):.1%} of the kernels' samples, {hi - lo} instructions")
    # samples per stretch between two calls: which call-delimited region is hot
    region, regions, last = [], [], "entry"
    for i in range(lo, hi):
        region.append(i)
        if info[i][0] == "call" or i == hi - 1:
            callee = "?"
            for q in range(i, max(lo, i - 12) - 1, -1):
                if info[q][2]:
                    callee = _short(info[q][2])
                    break
            regions.append((sum(per[j] for j in region), last, callee, region[0] - lo, region[-1] - lo))
            last = callee
            region = []
    print("  hottest stretches between calls (share of the function; after call -> up to call; instructions)")
    for c, a, b, s0, s1 in sorted(regions, reverse=True)[:top]:
        print(f"  {c / max(tot, 1):6.1%}  after {a} -> {b}  [{s0}..{s1}]")


def report(data: Path, symbols: Path, top: int, annotate_names=()) -> None:
    syms = []
    for line in symbols.read_text().splitlines():
        a, s, o, p, n = line.split()
        syms.append((int(a, 16), int(s, 16), int(o, 16), p, n))
    syms.sort()
    starts = [s[0] for s in syms]
    ips = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True).stdout
    counts = collections.Counter(int(x, 16) for x in ips.split())
    total = sum(counts.values())
    dis = _disassemble(sorted({s[3] for s in syms}))
    self_time, setup, pairs = collections.Counter(), 0, collections.Counter()
    jit = 0
    for ip, c in counts.items():
        k = bisect.bisect_right(starts, ip) - 1
        if k < 0 or ip >= syms[k][0] + syms[k][1]:
            continue
        a, _, o, p, n = syms[k]
        jit += c
        self_time[_short(n)] += c
        offs, info = dis[p]
        i = bisect.bisect_right(offs, o + ip - a) - 1
        window = info[max(0, i - 6):i + 7]
        stores = sum(1 for m, ops, _ in window
                     if m == "push" or (m == "mov" and "(%rsp)" in ops and ops.endswith("%rax")))
        if stores < 8:
            continue
        setup += c
        j = i
        while j < len(info) and info[j][0] != "call" and j < i + 600:
            j += 1
        callee = "?"
        for q in range(min(j, len(info) - 1), i - 1, -1):
            if info[q][2] and info[q][0].startswith("mov"):
                callee = _short(info[q][2])
                break
        pairs[(_short(n), callee)] += c
    print(f"\nsamples: {total:,}; in compiled kernels: {jit:,} ({jit / max(total, 1):.0%})")
    print(f"argument set-up before calls: {setup / max(jit, 1):.1%} of the kernels' samples\n")
    print("self time by compiled function (share of kernel samples)")
    for name, c in self_time.most_common(top):
        print(f"  {c / jit:6.1%}  {name}")
    print("\nargument set-up by call (caller -> callee)")
    for (a, b), c in pairs.most_common(top):
        print(f"  {c / jit:6.1%}  {a} -> {b}")
    for name in annotate_names:
        annotate(name, counts, syms, starts, dis, jit, top)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenario", nargs="?", default=str(DEFAULT))
    ap.add_argument("--trials", type=int, default=100_000)
    ap.add_argument("--variant", type=int, default=0)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--annotate", action="append", default=[], metavar="FUNC",
                    help="also the hottest stretches of this compiled function (e.g. kernel.attack)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.scenario, args.trials, args.variant)
        return
    WORK.mkdir(parents=True, exist_ok=True)
    data = WORK / "perf.data"
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    cmd = ["perf", "record", "-F", "2000", "-o", str(data), sys.executable, __file__, args.scenario,
           "--trials", str(args.trials), "--variant", str(args.variant), "--child"]
    subprocess.run(cmd, env=env, check=True)
    report(data, WORK / "symbols.txt", args.top, args.annotate)


if __name__ == "__main__":
    main()
