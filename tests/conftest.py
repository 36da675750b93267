"""Shared fixtures. Every random choice in a test flows from a seed it prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from oriflamme import Registry

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def registry() -> Registry:
    """The built-in sets only: tests must not depend on what else is installed."""
    return Registry(entry_points=False)
