"""Playing a study's games: in this process, in forked processes on every core, or as
tasks on a Ray cluster.

Game ``i`` is dealt from seed ``S + i`` and its bots draw from the same generator, as
in ``oriflamme simulate``; each share of games comes back as a :class:`Tally` of whole
numbers, so the totals are the same whatever shares the games were cut into and
wherever they were played.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import attrs

from oriflamme import (
    ConfigError,
    GameConfig,
    OriflammeError,
    PluginError,
    Registry,
    builtin_plugins,
)

from ..bots.kinds import BotChoice, parse_bots
from ..bots.play import play_games as bots_play_games
from ..installed import extra
from ..pool import share_out, shares
from ..simulate import chunk_size, makers
from .tally import Tally

#: What to install for ``--ray`` and for the plots.
EXTRA = extra("study")


@attrs.frozen
class Plugins:
    """Which plugins a registry holds, as plain data: what a Ray worker builds its own
    registry from (``--no-plugins``, ``--without``), and what it must then hold."""

    entry_points: bool
    exclude: tuple[str, ...]
    expected: tuple[tuple[str, str], ...]  # (plugin, version) in play, to check against

    @classmethod
    def of(cls, registry: Registry, *, no_plugins: bool, without: Sequence[str]) -> Plugins:
        """The choice the command line made (as ``oriflamme.cli`` reads it), and what
        ``registry``, built from it, holds."""
        builtins = {name for name, _ in builtin_plugins()}
        # With --no-plugins, an installed plugin is left out already: only built-ins remain.
        excluded = tuple(name for name in without if not no_plugins or name in builtins)
        expected = tuple((info.name, info.version) for info in registry.plugins)
        return cls(not no_plugins, excluded, expected)

    def build(self) -> Registry:
        """The registry, rebuilt from the installed plugins; a machine whose plugins
        differ from the ones the study started with is refused (its games would not
        be the same games)."""
        registry = Registry(entry_points=self.entry_points, exclude=self.exclude)
        found = tuple((info.name, info.version) for info in registry.plugins)
        if found != self.expected:
            raise PluginError(
                f"a Ray worker has other plugins than the study's: {_named(found)} "
                f"instead of {_named(self.expected)}; install the same ones on every node"
            )
        return registry


def _named(plugins: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{name} {version}" for name, version in plugins) or "none"


def play_games(
    config: GameConfig, seeds: range, registry: Registry, bots: Sequence[BotChoice]
) -> Tally:
    """Play one game per seed in ``seeds``, in this process, and add them up: the games
    of ``oriflamme simulate``, with their event logs kept to be read."""
    tally = Tally(config.families)
    bots_play_games(config, seeds, registry, makers(bots, registry), record=True, on_game=tally.add)
    return tally


def run_jobs(
    config: GameConfig,
    games: int,
    registry: Registry,
    bots: Sequence[BotChoice],
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play ``games`` games from ``config.seed`` on; ``jobs`` processes share them out."""
    tally = Tally(config.families)

    def play(seeds: range) -> Tally:
        return play_games(config, seeds, registry, bots)

    share_out(
        play,
        tally.merge,
        config.seed,
        games,
        size=chunk_size(bots),
        jobs=jobs,
        progress=progress,
    )
    return tally


def import_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`ConfigError` that says what to install."""
    try:
        with warnings.catch_warnings():
            # Ray's import may warn about its own dependencies; nothing a user can act on.
            warnings.simplefilter("ignore", DeprecationWarning)
            warnings.simplefilter("ignore", FutureWarning)
            return importlib.import_module("ray")
    except ImportError:
        raise ConfigError(f"--ray needs Ray: {EXTRA}") from None


# What a Ray worker process has built for a study: its registry and bots, rebuilt from
# plain data once per process, never sent pickled.
_BUILT: dict[Plugins, tuple[Registry, dict[tuple[str, ...], tuple[BotChoice, ...]]]] = {}


def ray_chunk(
    config: dict[str, Any], plugins: Plugins, bots: tuple[str, ...], first: int, stop: int
) -> dict[str, Any]:
    """A Ray task: play games ``first`` to ``stop - 1`` (by seed) and send back their
    totals as plain data. Everything is rebuilt here from plain values."""
    built = _BUILT.get(plugins)
    if built is None:
        built = _BUILT[plugins] = (plugins.build(), {})
    registry, choices = built
    chosen = choices.get(bots)
    if chosen is None:
        chosen = choices[bots] = tuple(parse_bots(bots, len(config["families"]), registry))
    game_config = GameConfig.from_dict(config)
    return play_games(game_config, range(first, stop), registry, chosen).to_dict()


def run_ray(
    ray: ModuleType,
    config: GameConfig,
    games: int,
    plugins: Plugins,
    bots: Sequence[BotChoice],
    *,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play ``games`` games as tasks on the Ray cluster this process is connected to."""
    task = ray.remote(ray_chunk)
    data = config.to_dict()
    texts = tuple(bot.text for bot in bots)
    # Some 4 tasks per CPU of the cluster, so that the nodes share the work evenly and the
    # bar moves; never more games per task than on one machine.
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(chunk_size(bots), -(-games // (4 * cpus))))
    pending = [
        task.remote(data, plugins, texts, seeds.start, seeds.stop)
        for seeds in shares(config.seed, games, size)
    ]
    tally = Tally(config.families)
    done = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for part in ray.get(ready):
                found = Tally.from_dict(part)
                tally.merge(found)
                done += found.games
                if progress is not None:
                    progress(done)
    except BaseException as exc:
        for ref in pending:
            ray.cancel(ref, force=True)
        # A task's own error (a worker with other plugins) comes wrapped: say it as is.
        cause = getattr(exc, "cause", None)
        if isinstance(exc, ray.exceptions.RayTaskError) and isinstance(cause, OriflammeError):
            raise cause from None
        raise
    return tally


def start_ray(ray: ModuleType, address: str, cpus: int | None = None) -> bool:
    """Connect to the Ray cluster at ``address`` (``auto``: the one this machine is part
    of), or with ``local`` start one in this process on ``cpus`` CPUs (default: all).

    Returns whether it connected: a process already connected to Ray (a notebook, a
    test) keeps that connection, and whoever made it ends it. A cluster that cannot be
    reached is a :class:`ConfigError` naming ``address``.
    """
    if ray.is_initialized():
        return False
    try:
        if address == "local":
            # Else Ray writes an auth token under the home directory for a cluster
            # that lives only as long as this command.
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            ray.init(
                address="local",
                num_cpus=cpus,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        else:
            _answers(address)
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ConfigError(f"--ray {address}: cannot start or reach Ray: {exc}") from None
    return True


def _answers(address: str) -> None:
    """Refuse at once an address ``host:port`` (``ray://host:port``) where nothing
    answers: Ray itself would retry it for minutes, logging each attempt."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return  # not host:port: Ray reads it
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except (OSError, ValueError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ConfigError(f"--ray {address}: nothing answers there ({reason})") from None
