"""Run ids: the name of a run's (or study's) directory, unique to it."""
from __future__ import annotations

import datetime as _dt
import os


def run_id(seed: int, sha256: str = "") -> str:
    """A run id that two runs cannot share: ``<UTC date>-<time>-<microseconds>-s<seed>-<hash>-p<pid>-<random>``.

    E.g. ``20261126-061500-123456-s7-ab12cd34-p4242-9f3a``: the UTC start time to
    the microsecond, the seed, the first 8 hex digits of the scenario text's
    SHA-256, the process id and 16 random bits (two runs started in the same
    microsecond by the same process still differ).
    """
    import secrets

    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    return f"{stamp}-s{seed}-{(sha256 or '')[:8]}-p{os.getpid()}-{secrets.token_hex(2)}"
