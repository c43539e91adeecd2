"""The top-level loader: a scenario file in, validated models out.

``load_scenario(path)`` reads the YAML safely (:mod:`.yamlload`), finds the
rule system named by ``system:`` (:mod:`sim.systems`), validates the base
scenario with the system's ``SCENARIO_MODEL`` and then every variant. Every
problem is a :class:`~sim.scenario.errors.ScenarioError`. Nothing is written.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from pydantic import BaseModel

import sim.systems as _systems

from .errors import doc_error, shown, validate_model
from .suggest import list_names, suggest
from .variants import expand_variants_with_origins
from .yamlload import Document, load_yaml, load_yaml_text


@dataclass(frozen=True)
class LoadedScenario:
    """A validated scenario and its variants.

    ``base`` is the scenario as written, without its variants (its
    ``variants`` and ``sweep`` fields are emptied); ``variants`` lists
    ``(name, model)`` in file order, ``[("base", base)]`` when there are none.
    ``raw`` is the plain data as read; ``sha256`` hashes the file's text and
    ``text`` is that text (a run's checkpoint keeps it, so ``sim report`` can
    rebuild the report without the file).
    """

    path: str
    name: str
    system: str
    module: ModuleType
    base: BaseModel
    variants: list[tuple[str, BaseModel]]
    sha256: str
    raw: dict[str, Any]
    text: str = ""

    def data_catalog(self):
        """The catalog overlay of the scenario's data block (mb41 and the draft: ``talents:``,
        a ``ScenarioCatalog``; d10: ``powers:``, a ``PowerCatalog``), or None without one. Its
        ``describe()`` says what the block edits or invents and what the kernel does not play."""
        for name in ("talent_catalog", "power_catalog"):
            if hasattr(self.base, name):
                return getattr(self.base, name)()
        return None


def _system_module(doc: Document) -> tuple[str, ModuleType]:
    data = doc.data
    known = _systems.names()
    if "system" not in data:
        raise doc_error(doc, ("system",), "required field missing: which rule system "
                        f"this scenario uses. Known systems: {list_names(known)}.")
    system = data["system"]
    if not isinstance(system, str):
        raise doc_error(doc, ("system",), f"expected the name of a rule system, got "
                        f"{shown(system)}. Known systems: {list_names(known)}.")
    try:
        module = _systems.get_system(system)
    except _systems.UnknownSystem:
        raise doc_error(doc, ("system",), f"unknown system {system!r}."
                        f"{suggest(system, known)} Known systems: "
                        f"{list_names(known)}.") from None
    if not hasattr(module, "SCENARIO_MODEL"):
        # a bug in the plug-in, not in the scenario: keep the traceback
        raise RuntimeError(f"system plug-in {module.__name__!r} defines no SCENARIO_MODEL")
    return system, module


def load_document(doc: Document) -> LoadedScenario:
    """Validate an already parsed :class:`Document` (see :func:`load_scenario`)."""
    system, module = _system_module(doc)
    model_cls = module.SCENARIO_MODEL
    full = validate_model(model_cls, doc.data, doc)
    empty = {k: v for k, v in (("variants", []), ("sweep", None))
             if k in type(full).model_fields}
    base = full.model_copy(update=empty)
    variants = []
    expanded = expand_variants_with_origins(doc.data, doc, tuple(getattr(module, "VARIANT_FIELDS", ())))
    if len(expanded) == 1 and expanded[0][0] == "base" and not expanded[0][2]:
        variants.append(("base", base))
    else:
        for name, vdata, origins in expanded:
            model = validate_model(model_cls, vdata, doc, where=f"variant {name!r}",
                                   origins=origins)
            variants.append((name, model))
    return LoadedScenario(path=doc.path, name=full.name, system=system, module=module,
                          base=base, variants=variants, sha256=doc.sha256,
                          raw=doc.data, text=doc.text)


def load_scenario(path: str | os.PathLike) -> LoadedScenario:
    """Load, check and validate the scenario file at ``path``.

    Raises :class:`ScenarioError` (one paragraph: file, line, field, what was
    expected) for any problem in the file.
    """
    return load_document(load_yaml(path))


def load_scenario_text(text: str, path_label: str = "<string>") -> LoadedScenario:
    """Like :func:`load_scenario` for YAML text (tests, notebooks)."""
    return load_document(load_yaml_text(text, path_label))
