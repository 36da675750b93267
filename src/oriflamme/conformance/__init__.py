"""Conformance scenarios: the format docs/scenarios.md describes, read, set up and
checked exactly as that page says.

``oriflamme conformance PATH...`` and the project's pytest suite both run
scenarios through :func:`run_file`, against this project's engine in-process by
default, or against any engine that speaks docs/engine-protocol.md
(:class:`RemoteEngine`; ``oriflamme engine`` is ours, speaking it).
"""

from .engines import Engine, LocalEngine
from .model import Scenario, ScenarioError
from .remote import RemoteEngine
from .runner import ScenarioResult, find_scenarios, run_file, run_paths
from .scenario import load_scenario

__all__ = [
    "Engine",
    "LocalEngine",
    "RemoteEngine",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "find_scenarios",
    "load_scenario",
    "run_file",
    "run_paths",
]
