"""What a run says on stderr while it gets its kernels (sim/notice.py): ``loading
compiled kernels`` when the cache holds them, ``compiling`` only when one compiles."""
from __future__ import annotations

import io
import time

from sim import notice


class _Event:
    def __init__(self, fn):
        self.data = {"dispatcher": type("D", (), {"py_func": fn})()}


def _said(monkeypatch, body, compiling=False):
    out = io.StringIO()
    n = notice.CompileNotice(stream=out)
    monkeypatch.setattr(notice, "DELAY", 0.05)
    with n.batch("the 4.1 engine (none): 8 procedures", compiling=compiling):
        body(n)
    return out.getvalue()


def test_a_slow_batch_that_only_loads_says_loading(monkeypatch):
    text = _said(monkeypatch, lambda n: time.sleep(0.2))
    assert "loading compiled kernels: the 4.1 engine (none): 8 procedures" in text
    assert "loaded compiled kernels" in text
    assert "compil" not in text.replace("compiled kernels", "")


def test_a_batch_says_compiling_once_a_kernel_compiles(monkeypatch):
    def body(n):
        time.sleep(0.15)           # loading from the cache: it says "loading" first
        n.on_start(_Event(test_a_batch_says_compiling_once_a_kernel_compiles))
        n.on_end(None)             # then a cache miss: numba compiles one
        time.sleep(0.05)

    text = _said(monkeypatch, body)
    assert text.index("loading compiled kernels") < text.index("compiling the 4.1 engine")
    assert "compiled the 4.1 engine (none): 8 procedures in" in text


def test_a_batch_known_to_compile_says_compiling(monkeypatch):
    text = _said(monkeypatch, lambda n: time.sleep(0.2), compiling=True)
    assert text.startswith("compiling the 4.1 engine") and "loading" not in text


def test_a_quick_batch_says_nothing(monkeypatch):
    assert _said(monkeypatch, lambda n: None) == ""


def test_a_tier2_build_compiling_is_named(monkeypatch):
    """A tier-2 build's kernel (a generated module ``mgsim_t2_<key>``, outside the package) is
    named as such, not as a user's kernel."""
    def simulate_blocks():
        pass

    simulate_blocks.__module__ = "mgsim_t2_0123456789abcdef0123.fight"
    out = io.StringIO()
    n = notice.CompileNotice(stream=out)
    monkeypatch.setattr(notice, "DELAY", 0.05)
    n.on_start(_Event(simulate_blocks))
    time.sleep(0.2)
    n.on_end(None)
    text = out.getvalue()
    assert "compiling tier 2 (the 4.1 engine generated for this structure) kernels (fight.simulate_blocks)" in text
    assert "user" not in text
