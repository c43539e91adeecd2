#!/usr/bin/env python
"""The README's screenshot of ``sim serve``: the workbench at 1280x800 after a quickstart run.

Copies ``scenarios/`` into a temporary folder, starts ``sim serve`` there as a
user would (``--no-browser --port 0``), opens the page in the OS's Chromium
(playwright, as the tests drive it), runs the quickstart at its 40,000 trials
a variant and saves ``docs/img/serve-workbench.png``::

    .venv/bin/python tools/serve_screenshot.py [--out docs/img/serve-workbench.png]

A development tool; nothing in ``sim`` imports it.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "serve-workbench.png"))
    ap.add_argument("--chromium", default=os.environ.get("MGSIM_CHROMIUM") or shutil.which("chromium")
                    or "/usr/bin/chromium")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "scenarios", Path(tmp) / "scenarios")
        proc = subprocess.Popen([sys.executable, "-m", "sim", "serve", "scenarios/quickstart.yaml", "--no-browser",
                                 "--port", "0"], cwd=tmp, stdout=subprocess.PIPE, text=True)
        try:
            url = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", proc.stdout.readline()).group(1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(url)
                page.wait_for_selector("body[data-ready='1']")
                page.wait_for_selector("#queue:empty", timeout=600_000)  # the kernels loaded
                page.click("#run")
                page.wait_for_selector("#results a.report", timeout=120_000)
                page.wait_for_selector("#chart svg")
                time.sleep(0.5)
                page.screenshot(path=args.out)
                browser.close()
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(15)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
