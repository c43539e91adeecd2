"""Which engine tier plays a run's chunks: the general engine, or one generated for the structure.

A rule system may offer a second tier (the 4.1 engine does, :mod:`sim.systems.mb41.tier2`):
the same fights, the same counters bit for bit, played by an engine generated for one
scenario *structure* (its geometry, rule choices, talents and hooks). Its compile costs
a minute or more per structure, so it pays only on long runs:

* the trials a run plans are added up per structure: the variants that share one (a sweep
  over stats, thresholds or other numbers of the rule table) count together and share
  one build (:meth:`Plan.plan_all`);
* a structure whose planned trials reach :data:`THRESHOLD` (``MGSIM_TIER2_TRIALS`` sets it;
  ``0`` turns tier 2 off) starts building tier 2 in a background process once a first
  chunk of it is played (the general engine is warm by then);
* a structure whose build an earlier run compiled plays on tier 2 from its first chunk
  once its planned trials reach :data:`WARM_THRESHOLD` (``MGSIM_TIER2_WARM_TRIALS``);
* until that build is ready the general engine plays the variant's chunks; from the first
  chunk after it, tier 2 does. Chunks merge in order and both tiers give the same
  counters, so the result does not depend on which tier played which chunk (or on the
  machine's speed);
* a build that fails or is stopped changes nothing: the general engine plays on, and the
  run says so.

The run records how many trials each tier played (``provenance["tiers"]``) and says so on
stderr. joblib workers (``--workers``) play tier 2 when an earlier run compiled the
structure's build (no build starts while the workers hold the cores); so do dask tasks, on a
worker whose own numba cache holds the build too (else that task plays the general engine;
the run records what each task played). A study plans its streams (arms and replays) the same way, from its
preflight's count (:func:`sim.study.run._tiers`); a study's rows play the block kernels a
run plays (:mod:`sim.trial_rows`), so one build serves both.
"""
from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: planned trials of one variant from which its structure's tier 2 is built when no earlier
#: run compiled it (measured: docs/performance.md "Tier 2": below it the build's minute or two
#: of one core costs more than tier 2 saves); ``MGSIM_TIER2_TRIALS`` overrides it, 0 turns
#: tier 2 off
THRESHOLD = 35_000_000
ENV = "MGSIM_TIER2_TRIALS"
#: planned trials from which a build an earlier run compiled plays from the first chunk
#: (loading it takes about a second); ``MGSIM_TIER2_WARM_TRIALS`` overrides it
WARM_THRESHOLD = 1_000_000
WARM_ENV = "MGSIM_TIER2_WARM_TRIALS"
#: LLVM's optimisation level for a build (numba's ``NUMBA_OPT``, read once when numba starts, so
#: set in the build's own process). A build is one kernel with nearly everything inlined into it;
#: measured on the bench's party fights (docs/performance.md "Tier 2"): at 2 than at numba's
#: default 3, the gridless build compiles 27% faster in 21% less memory and plays 5.8% faster,
#: the hex build compiles 6% faster and plays about 1% slower; both break even sooner (the
#: general engine, many small kernels, stays at 3: it was 2-4% slower at 2).
#: ``MGSIM_TIER2_OPT`` overrides it (0-3). The level changes no result: the same counters.
BUILD_OPT = 2
OPT_ENV = "MGSIM_TIER2_OPT"


def build_env() -> dict:
    """The environment of a build's process: this one's, with :data:`BUILD_OPT` as ``NUMBA_OPT``."""
    opt = os.environ.get(OPT_ENV, "").strip()
    level = opt if opt in ("0", "1", "2", "3") else str(BUILD_OPT)
    return {**os.environ, "NUMBA_OPT": level}


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return max(0, int(float(raw)))
    except ValueError:
        return default


def threshold() -> int:
    """The planned trials from which tier 2 is built (0: never)."""
    return _env_int(ENV, THRESHOLD)


def warm_threshold() -> int:
    """The planned trials from which a compiled build plays at once (0 with :func:`threshold`
    0: never)."""
    return _env_int(WARM_ENV, WARM_THRESHOLD) if threshold() > 0 else 0


def structure_of(system: str, inputs):
    """``(key, compiled)`` of the system's tier-2 build for ``inputs``, or ``None`` (no tier 2
    for it)."""
    from sim.systems import get_system

    mod = get_system(system)
    fn = getattr(mod, "tier2_key", None)
    if fn is None:
        return None
    return fn(inputs)



def _die_with_parent() -> None:
    """In the build's process (Linux): end it when the run's process ends, however it ends (a
    run killed by ``kill -9`` or by the workbench leaves no compile behind)."""
    import ctypes
    import signal

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class _Build:
    """One structure's tier 2, compiled by a background process (``python -m sim.tiers``)."""

    def __init__(self, system: str, inputs, key: str):
        self.key = key
        self.folder = Path(tempfile.mkdtemp(prefix="mgsim-tier2-"))
        job = self.folder / "job.pickle"
        job.write_bytes(pickle.dumps((system, inputs)))
        self.log = self.folder / "compile.log"
        self.started = time.monotonic()
        self.seconds: float | None = None
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "sim.tiers", str(job)], stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=build_env(),
                                         preexec_fn=_die_with_parent if sys.platform == "linux" else None)

    def state(self) -> str:
        """``building``, ``ready`` or ``failed``."""
        rc = self.proc.poll()
        if rc is None:
            return "building"
        if self.seconds is None:
            self.seconds = time.monotonic() - self.started
        return "ready" if rc == 0 else "failed"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def why(self) -> str:
        try:
            lines = self.log.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "no log"
        return lines[-1] if lines else f"exit status {self.proc.returncode}"


class Plan:
    """The tiers of one run: which plays each chunk, and what each played."""

    def __init__(self, system: str, quiet: bool = False):
        self.system = system
        self.quiet = quiet
        self.limit = threshold()
        self.warm = warm_threshold()
        self.builds: dict[str, _Build] = {}
        self.keys: dict[str, str | None] = {}  # variant -> its structure's key (None: no tier 2)
        self.ready: set[str] = set()  # keys whose build is compiled
        self.played: dict[str, dict[int, int]] = {}
        self.said: set[str] = set()
        self.pooled = False  # joblib workers play this run: no background build starts
        self._found: dict = {}  # variant -> structure_of's answer (its inputs do not change)
        self.planned: dict[str, int] = {}  # structure key -> trials planned for it when it was chosen
        self.warmed: set[str] = set()  # keys some chunk of which the general engine played

    def plan(self, variant: str, inputs, planned: int) -> None:
        """Variant ``variant`` will play ``planned`` more trials: decide whether tier 2 is worth it
        (the trials of one variant; :meth:`plan_all` adds up the variants of a structure)."""
        self.plan_all([(variant, inputs, planned)])

    def plan_all(self, entries) -> None:
        """``entries``: ``(variant, inputs, planned)`` of every variant the run will play next,
        ``planned`` its trials still to play. Tier 2 is planned per *structure*: the variants
        sharing one (a sweep over stats, thresholds or a rule number) add up their planned
        trials against the thresholds, and share one build (issue 38: "the planned fights for
        one structure")."""
        chosen = {k for k in self.keys.values() if k is not None}
        least = min(self.limit, self.warm or self.limit)
        if self.limit <= 0 or (not chosen and sum(max(0, int(n)) for _v, _i, n in entries) < least):
            for variant, _inputs, _planned in entries:  # too short for any build (no key to compute)
                self.played.setdefault(variant, {1: 0, 2: 0})
                self.keys.setdefault(variant, None)
            return
        found: dict[str, tuple[str, bool] | None] = {}
        total: dict[str, int] = {}
        for variant, inputs, planned in entries:
            self.played.setdefault(variant, {1: 0, 2: 0})
            if self.keys.get(variant) is not None:
                continue
            if variant not in self._found:
                try:
                    self._found[variant] = structure_of(self.system, inputs)
                except Exception:  # noqa: BLE001 - no tier 2 is always a correct answer
                    self._found[variant] = None
            found[variant] = self._found[variant]
            if found[variant] is not None:
                k = found[variant][0]
                total[k] = total.get(k, 0) + max(0, int(planned))
        for variant, f in found.items():
            key = None
            if f is not None:
                k, done = f
                if k in chosen:  # a build this run plays already: it costs nothing more
                    key = k
                elif done and total[k] >= least:
                    key = k
                    self.ready.add(k)
                elif total[k] >= self.limit:
                    key = k
                if key is not None:
                    self.planned[k] = max(self.planned.get(k, 0), total[k])
            self.keys[variant] = key

    def tier(self, variant: str, inputs) -> int:
        """The tier that plays ``variant``'s next chunk (1 until its structure's build is ready;
        the build starts at the structure's second chunk, when the general engine is warm)."""
        key = self.keys.get(variant)
        if key is None:
            return 1
        if key in self.ready:
            self._say(f"tier 2: the engine generated for this structure plays (compiled by an earlier run, "
                      f"{key[:8]})", key + "warm")
            return 2
        build = self.builds.get(key)
        if build is None:
            if key not in self.warmed or self.pooled:
                return 1
            build = self.builds[key] = _Build(self.system, inputs, key)
            shared = sum(1 for k in self.keys.values() if k == key)
            also = f", {shared} variants sharing it" if shared > 1 else ""
            self._say(f"tier 2: building the engine for this structure in the background "
                      f"({self.planned.get(key, 0):,} trials planned{also}); "
                      f"the general engine plays meanwhile ({key[:8]})", key + "start")
            return 1
        state = build.state()
        if state == "ready":
            self._say(f"tier 2: ready after {build.seconds:.0f} s; it plays the rest ({key[:8]})", key + "ready")
            return 2
        if state == "failed":
            self._say(f"tier 2: the build failed ({build.why()}); the general engine plays on", key + "failed")
        return 1

    def pooled_tier(self, variant: str, inputs, planned: int) -> int:
        """The tier for ``planned`` more trials of ``variant`` dealt out at once (joblib workers'
        tasks): 2 when an earlier run compiled its structure's build, else 1 (no build starts:
        the workers hold every core)."""
        self.pooled = True
        if self.keys.get(variant) is None:
            self.plan(variant, inputs, planned)
        key = self.keys.get(variant)
        if key is None or key not in self.ready:
            return 1
        self._say(f"tier 2: the engine generated for this structure plays in the workers (compiled by an "
                  f"earlier run, {key[:8]})", key + "warm")
        return 2

    def record(self, variant: str, tier: int, count: int) -> None:
        self.played.setdefault(variant, {1: 0, 2: 0})[tier] += count
        key = self.keys.get(variant)
        if tier == 1 and key is not None:
            self.warmed.add(key)  # the general engine is compiled for it: a build may start

    def close(self) -> None:
        """Stop builds still running (what they compiled stays in numba's cache for the next
        run) and remove their scratch folders."""
        for b in self.builds.values():
            b.stop()
            if getattr(b, "folder", None) is not None:
                shutil.rmtree(b.folder, ignore_errors=True)

    def provenance(self, done: dict | None = None, resumed: dict | None = None) -> dict:
        """``{"tiers": {variant: {"general": n, "generated": m[, "resumed": k]}}, "tier2_threshold": N}``:
        the trials each engine played in this run. ``done``: trials done per variant at the end,
        ``resumed``: at the start (a checkpoint's); the trials not recorded as tier 2's were
        played on the general engine."""
        out = {}
        for v in dict.fromkeys(list(self.played) + list(done or {})):
            gen = self.played.get(v, {}).get(2, 0)
            back = int((resumed or {}).get(v, 0))
            total = int((done or {}).get(v, sum(self.played.get(v, {}).values()) + back))
            row = {"general": total - back - gen, "generated": gen}
            if back:
                row["resumed"] = back
            out[v] = row
        return {"tiers": out, "tier2_threshold": self.limit}

    def summary(self) -> str | None:
        """One line on what tier 2 played, or ``None`` when it played nothing."""
        gen = sum(p[2] for p in self.played.values())
        if gen == 0:
            return None
        total = sum(p[1] + p[2] for p in self.played.values())
        return (f"tier 2 (the engine generated for the structure) played {gen:,} of {total:,} trials; "
                f"the general engine {total - gen:,} (the same counters either way)")

    def _say(self, text: str, once: str) -> None:
        if once in self.said or self.quiet:
            self.said.add(once)
            return
        self.said.add(once)
        print(text, file=sys.stderr, flush=True)


def compile_now(system: str, inputs) -> None:
    """Compile the tier-2 build of ``inputs`` into numba's cache now, in a process of its own
    (:data:`BUILD_OPT`), and wait for it (``sim warmup --tier2``). RuntimeError with the
    build's last line of output when it fails."""
    folder = Path(tempfile.mkdtemp(prefix="mgsim-tier2-"))
    try:
        job = folder / "job.pickle"
        job.write_bytes(pickle.dumps((system, inputs)))
        done = subprocess.run([sys.executable, "-m", "sim.tiers", str(job)], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, env=build_env(),
                              preexec_fn=_die_with_parent if sys.platform == "linux" else None)
        if done.returncode != 0:
            lines = (done.stdout + done.stderr).strip().splitlines()
            raise RuntimeError(lines[-1] if lines else f"exit status {done.returncode}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _compile(job: str) -> None:
    """The background build: play one trial on tier 2 (compiling it into numba's cache; a
    study's rows play the same kernel, :mod:`sim.trial_rows`)."""
    system, inputs = pickle.loads(Path(job).read_bytes())
    from sim.systems import get_system

    mod = get_system(system)
    mod.simulate(inputs, 0, 1, 0, tier=2)
    mod.tier2_compiled(inputs)


if __name__ == "__main__":
    _compile(sys.argv[1])
