"""A study file: a scenario with a ``study:`` block.

:func:`load_study` reads the YAML once (:func:`sim.scenario.load_yaml`),
validates the ``study:`` block with its kind's ``SPEC`` model (an unknown
``kind`` is an error with a close-name suggestion), and validates the rest as
an ordinary scenario of its system (without ``variants:``/``sweep:``, which a
study replaces by its own arms). Errors are :class:`ScenarioError`: one
paragraph naming the file, line, field and what was expected.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pydantic import create_model

from sim.scenario import Document, LoadedScenario, load_document, load_yaml, validate_model
from sim.scenario.errors import doc_error
from sim.scenario.suggest import list_names, suggest

from . import registry
from .spec import StudySpec


@dataclass(frozen=True)
class LoadedStudy:
    """The base scenario (``loaded``, its variants ignored), the study spec and the document."""

    loaded: LoadedScenario
    spec: StudySpec
    doc: Document


def _spec(doc: Document) -> StudySpec:
    data = doc.data
    if "study" not in data:
        raise doc_error(doc, (), "this scenario has no 'study:' block; add one, e.g. "
                        "study: {kind: compare, arms: [...]}. Study kinds: "
                        f"{list_names(registry.names())}. See docs/studies.md.")
    block = data["study"]
    if not isinstance(block, dict):
        raise doc_error(doc, ("study",), "expected a mapping with a 'kind' "
                        f"({list_names(registry.names())}) and that kind's fields.")
    kind = block.get("kind")
    if kind is None:
        raise doc_error(doc, ("study", "kind"), "required field missing: which study "
                        f"to run. Study kinds: {list_names(registry.names())}.")
    if not isinstance(kind, str) or kind not in registry.names():
        raise doc_error(doc, ("study", "kind"), f"unknown study kind {kind!r}."
                        f"{suggest(kind, registry.names())} Study kinds: "
                        f"{list_names(registry.names())}.")
    spec_cls = registry.get_kind(kind).SPEC
    wrapper = create_model("StudyFile", __base__=StudySpec.__base__, study=(spec_cls, ...))
    return validate_model(wrapper, {"study": block}, doc).study


def file_kind(doc: Document) -> str | None:
    """The study kind of ``doc`` if it is a whole-file kind (``registry.FILE_KINDS``)."""
    block = doc.data.get("study")
    kind = block.get("kind") if isinstance(block, dict) else None
    return kind if isinstance(kind, str) and kind in registry.FILE_KINDS else None


@contextlib.contextmanager
def file_holding(text: str, path, name: str):
    """A path whose file holds ``text``: ``path`` itself when that file holds exactly it, else a
    private copy named ``name``'s last part, removed on leaving (a whole-file study kind reads
    files only; the workbench's edited text is not the file on disk)."""
    here = Path(path) if path else None
    if here is not None and here.is_file() and here.read_text(encoding="utf-8") == text:
        yield here
        return
    with tempfile.TemporaryDirectory(prefix="sim-text-") as tmp:
        copy = Path(tmp) / Path(name).name
        copy.write_text(text, encoding="utf-8")
        yield copy


def load_whole_file(kind: str, doc: Document):
    """The model of a whole-file study kind (``registry.FILE_KINDS``: the lethality study) for
    ``doc``: its module's ``load_study_text`` when it has one, else its ``load_study`` of the
    file (:func:`file_holding`: a private copy when ``doc`` is not the file as it stands, whose
    path messages name as ``doc.path``, the workbench's edited text). Raises ``ScenarioError``."""
    from sim.scenario import ScenarioError

    mod = registry.get_kind(kind)
    if hasattr(mod, "load_study_text"):
        return mod.load_study_text(doc.text, doc.path)
    with file_holding(doc.text, doc.path, doc.path) as path:
        try:
            return mod.load_study(path)
        except ScenarioError as e:
            if path == Path(doc.path):
                raise
            raise ScenarioError(str(e).replace(str(path), doc.path), file=doc.path, line=e.line, field=e.field,
                                detail=e.detail, problems=e.problems) from None


def load_study_document(doc: Document) -> LoadedStudy:
    """Validate a parsed document (see :func:`load_study`)."""
    spec = _spec(doc)
    rest = {k: v for k, v in doc.data.items() if k not in ("study", "variants", "sweep")}
    loaded = load_document(dataclasses.replace(doc, data=rest))
    return LoadedStudy(loaded=loaded, spec=spec, doc=doc)


def load_study(path: str | os.PathLike) -> LoadedStudy:
    """Load and validate the study file at ``path`` (raises ``ScenarioError``)."""
    return load_study_document(load_yaml(path))


def load_study_text(text: str, path_label: str = "<string>") -> LoadedStudy:
    """Like :func:`load_study` for YAML text (tests, notebooks)."""
    from sim.scenario import load_yaml_text

    return load_study_document(load_yaml_text(text, path_label))
