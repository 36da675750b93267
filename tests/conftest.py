"""Shared fixtures. Every random choice in a test flows from a seed it prints."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from oriflamme import Registry

from .postgres import Cluster, available

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
#: Set to 1 where PostgreSQL must be tested (CI): its absence fails instead of skipping.
REQUIRE_POSTGRES = "ORIFLAMME_REQUIRE_POSTGRES"


@pytest.fixture(scope="session")
def registry() -> Registry:
    """The built-in sets only: tests must not depend on what else is installed."""
    return Registry(entry_points=False)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A PostgreSQL cluster of the tests' own (tests/postgres.py), for the whole session.

    Each test module takes a database of its own: ``postgres.database("name")``.
    Skipped where PostgreSQL is not installed, unless ORIFLAMME_REQUIRE_POSTGRES=1.
    """
    reason = available()
    if reason is not None:
        if os.environ.get(REQUIRE_POSTGRES) == "1":
            pytest.fail(f"{REQUIRE_POSTGRES}=1, but {reason}", pytrace=False)
        pytest.skip(reason)
    with Cluster() as cluster:
        yield cluster
