"""The report layer: tables, charts and ``report.html`` for a :class:`~sim.results.RunResult`.

Only this package draws. The entry point is :func:`write_run`.
"""
from .atomic import OutputExistsError, atomic_dir
from .html import format_rate, render_html
from .write import write_run

__all__ = ["write_run", "OutputExistsError", "atomic_dir", "format_rate", "render_html"]
