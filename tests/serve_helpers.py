"""A ``sim serve`` server for the tests: started as a user starts it, in a folder of its own.

:class:`Server` runs ``python -m sim serve --no-browser --port 0`` in a
subprocess (cwd: the folder served, so ``results/`` lands there), reads the
address it prints, and talks to it with plain HTTP (:meth:`Server.api`).
:meth:`Server.wait_idle` waits until no job is waiting or running (the warm
worker has loaded the kernels). ``stop`` ends it with Ctrl-C (SIGINT), as a
user does.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from helpers import ctrl_c_reaches_it

ROOT = Path(__file__).resolve().parent.parent
#: the files copied into the served folder: (source under the repository, name there)
FILES = {
    "scenarios/quickstart.yaml": "quickstart.yaml",
    "scenarios/d10/duel.yaml": "d10/duel.yaml",
    "scenarios/cards/round-robin-heuristic.yaml": "cards/round-robin.yaml",
    "scenarios/studies/compare-inflict.yaml": "studies/compare-inflict.yaml",
    "tests/data/serve/xss.yaml": "xss.yaml",
}


def make_folder(root: Path) -> Path:
    for src, dst in FILES.items():
        (root / dst).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / src, root / dst)
    return root


class Server:
    def __init__(self, root: Path, env: dict | None = None):
        self.root = Path(root)
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen | None = None
        self.url = ""
        self.log = self.root.parent / f"{self.root.name}-server.log"

    def start(self, timeout: float = 60.0) -> "Server":
        err = open(self.log, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "sim", "serve", "--no-browser", "--port", "0"],
                                     cwd=self.root, stdout=subprocess.PIPE, stderr=err, env=self.env, text=True,
                                     preexec_fn=ctrl_c_reaches_it)
        end = time.monotonic() + timeout
        line = ""
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            if m:
                self.url = m.group(1)
                return self
            if self.proc.poll() is not None:
                break
        raise RuntimeError(f"sim serve did not start: {line!r}; log {self.log}:\n{self.log.read_text()[-3000:]}")

    @property
    def port(self) -> int:
        return int(self.url.rstrip("/").rsplit(":", 1)[1])

    def api(self, method: str, path: str, body=None, headers: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method,
                                     headers={"content-type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, raw.decode("utf-8", "replace")

    def jobs(self) -> list[dict]:
        return self.api("GET", "/api/state")[1]["queue"]

    def wait_idle(self, timeout: float = 300.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not [j for j in self.jobs() if j["state"] not in ("done", "failed", "stopped")]:
                return
            time.sleep(0.1)
        raise TimeoutError(f"the server's jobs did not finish in {timeout} s: {self.jobs()}")

    def warm(self, rel: str) -> None:
        text = (self.root / rel).read_text()
        self.api("POST", "/api/warm", {"text": text, "path": rel})

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
