"""The tests' PostgreSQL cluster (tests/postgres.py): what the store's tests rely on."""

from __future__ import annotations

import contextlib
import socket

import pytest

from .postgres import Cluster, ClusterError

# Without psycopg (the `postgres` extra) the `postgres` fixture every test takes skips,
# or fails where PostgreSQL is required.
with contextlib.suppress(ImportError):
    import psycopg

CHANNEL = "oriflamme"


@pytest.fixture(scope="module")
def url(postgres: Cluster) -> str:
    return postgres.database("cluster_tests")


def test_two_databases_of_one_cluster_are_separate(postgres: Cluster) -> None:
    first, second = postgres.database("separate_a"), postgres.database("separate_b")
    assert first != second
    with psycopg.connect(first, autocommit=True) as connection:
        connection.execute("CREATE TABLE games (id text PRIMARY KEY)")
        connection.execute("INSERT INTO games VALUES ('g1')")
    with psycopg.connect(second) as connection:
        found = connection.execute("SELECT to_regclass('games')").fetchone()
        name = connection.execute("SELECT current_database()").fetchone()
    assert found == (None,)
    assert name == ("separate_b",)


def test_a_database_name_is_checked(postgres: Cluster) -> None:
    with pytest.raises(ValueError, match="lower case letters"):
        postgres.database("Games; DROP")
    postgres.database("once")
    with pytest.raises(ValueError, match="already created"):
        postgres.database("once")


def test_a_committed_row_is_read_by_another_connection(url: str) -> None:
    with psycopg.connect(url) as writer, psycopg.connect(url) as reader:
        writer.execute("CREATE TABLE steps (game text PRIMARY KEY, step int)")
        writer.commit()
        writer.execute("INSERT INTO steps VALUES ('g1', 7)")
        # Not yet committed: the reader does not see it.
        assert reader.execute("SELECT step FROM steps").fetchall() == []
        reader.rollback()
        writer.commit()
        assert reader.execute("SELECT game, step FROM steps").fetchall() == [("g1", 7)]


def test_a_notification_arrives_only_after_commit(url: str) -> None:
    with (
        psycopg.connect(url, autocommit=True) as listener,
        psycopg.connect(url) as sender,
    ):
        listener.execute(f"LISTEN {CHANNEL}")
        sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, "g1:3"))
        early = list(listener.notifies(timeout=0.3, stop_after=1))
        sender.commit()
        late = list(listener.notifies(timeout=5, stop_after=1))
    assert early == []
    assert [(note.channel, note.payload) for note in late] == [(CHANNEL, "g1:3")]


def test_the_cluster_listens_on_127_0_0_1_only(postgres: Cluster, url: str) -> None:
    with psycopg.connect(url) as connection:
        shown = connection.execute("SHOW listen_addresses").fetchone()
        address = connection.execute("SELECT host(inet_server_addr())").fetchone()
    assert shown == ("127.0.0.1",)
    assert address == ("127.0.0.1",)
    # Another loopback address reaches the same machine, but nothing listens there.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(5)
        with pytest.raises(ConnectionRefusedError):
            probe.connect(("127.0.0.2", postgres.port))


def test_a_cluster_that_cannot_start_says_why(postgres: Cluster) -> None:
    with (
        pytest.raises(ClusterError, match=r"(?s)could not start.*server's log.*max_connections"),
        Cluster(settings={"max_connections": "-5"}, timeout=10),
    ):
        pass


def test_the_folder_is_deleted_and_the_server_stopped(postgres: Cluster) -> None:
    with Cluster() as cluster:
        folder, port = cluster.folder, cluster.port
        assert folder is not None
        assert folder.is_dir()
    assert not folder.exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", connect_timeout=2)
