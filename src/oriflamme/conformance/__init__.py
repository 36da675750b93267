"""Conformance scenarios: the format of ``../shared/conformance/FORMAT.md``, read,
set up and checked exactly as that contract says.

``oriflamme conformance PATH...`` and the project's pytest suite both run
scenarios through :func:`run_file`.
"""

from .model import Scenario, ScenarioError
from .runner import ScenarioResult, find_scenarios, run_file, run_paths
from .scenario import load_scenario

__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "find_scenarios",
    "load_scenario",
    "run_file",
    "run_paths",
]
