"""Scenario files: safe YAML loading, validation and friendly errors.

Public API::

    load_scenario(path) -> LoadedScenario
    load_scenario_text(text, path_label="<string>") -> LoadedScenario
    load_yaml(path) -> Document            # safe YAML with limits and lines
    validate_model(model_cls, data, doc, where="") -> model
    expand_variants(data, doc) -> [(name, data), ...]
    suggest(name, choices) -> " Did you mean 'X'?" | ""
    unknown_name_message(kind, name, choices) -> str   # for system validators
    ScenarioError, StrictModel, ScenarioHeader, VariantSpec
"""
from .base import ScenarioHeader, StrictModel, VariantSpec
from .errors import ScenarioError, format_field, validate_model
from .load import LoadedScenario, load_document, load_scenario, load_scenario_text
from .suggest import suggest, unknown_name_message
from .variants import expand_variants
from .yamlload import Document, load_yaml, load_yaml_text

__all__ = [
    "Document",
    "LoadedScenario",
    "ScenarioError",
    "ScenarioHeader",
    "StrictModel",
    "VariantSpec",
    "expand_variants",
    "format_field",
    "load_document",
    "load_scenario",
    "load_scenario_text",
    "load_yaml",
    "load_yaml_text",
    "suggest",
    "unknown_name_message",
    "validate_model",
]
