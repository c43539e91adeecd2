"""The error of bad study options."""
from __future__ import annotations


class StudyError(ValueError):
    """Bad study options (trials, seed, memory); one paragraph."""
