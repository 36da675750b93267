"""The ``conformance``, ``cards``, ``plugins`` and ``bots`` commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from oriflamme import Registry
from oriflamme.text import escaped

from .bots.kinds import bot_kinds
from .bots.levels import LEVELS
from .conformance import Engine, RemoteEngine, ScenarioError, find_scenarios, run_file
from .conformance.compare import compare_command
from .conformance.export import export_command, installed_suite
from .conformance.remote import BreaksInARow


def conformance_command(args: argparse.Namespace, registry: Registry) -> int:
    """Run every scenario under ``args.paths`` (none: the suite this install carries, or
    the parts ``--subset`` names): 0 if all passed, 1 if any failed.

    Finding no scenario at all is a mistake (a CI job pointed at the wrong folder must
    not pass): :class:`ScenarioError`, naming the paths. A file that cannot be read or
    is not a scenario is one failed scenario, with its reason, and the run goes on.

    With ``--engine CMD`` the scenarios run against that engine
    (:class:`~oriflamme.conformance.RemoteEngine`), and the output is the same, line
    for line. An engine that cannot start is a mistake
    (:class:`~oriflamme.conformance.remote.EngineBroken`, before any scenario); one
    that breaks :data:`~oriflamme.conformance.remote.MAX_BREAKS_IN_A_ROW` scenarios
    in a row stops the run (status 1).
    """
    if args.export is not None:
        if args.paths or args.engine is not None or args.subset:
            raise ScenarioError(
                "--export DIR writes the suite and runs nothing: give no PATH, --engine "
                "or --subset with it"
            )
        return export_command(args)
    if args.compare is not None:
        return compare_command(args, registry)
    if args.paths and args.subset:
        raise ScenarioError("--subset NAME picks from the installed suite: give no PATH with it")
    paths = args.paths or installed_scenarios(args.subset)
    files = find_scenarios(paths)
    if not files:
        searched = ", ".join(str(path) for path in paths)
        raise ScenarioError(f"no scenario found: no *.yaml file in {searched}")
    if args.engine is None:
        return run_scenarios(files, registry, quiet=args.quiet)
    with RemoteEngine(args.engine) as engine:
        return run_scenarios(files, registry, engine, quiet=args.quiet, stop=BreaksInARow(engine))


def installed_scenarios(subsets: Sequence[str] | None) -> list[Path]:
    """The folders of the suite this install carries: all of it, or the parts named."""
    folder = installed_suite() / "tests" / "conformance"
    if not subsets:
        return [folder]
    parts = sorted(path.name for path in folder.iterdir() if path.is_dir())
    for name in subsets:
        if name not in parts:
            raise ScenarioError(
                f"--subset {name!r}: no such part of the suite; its parts: {', '.join(parts)}"
            )
    return [folder / name for name in dict.fromkeys(subsets)]


def run_scenarios(
    files: Sequence[Path],
    registry: Registry,
    engine: Engine | None = None,
    *,
    quiet: bool = False,
    stop: Callable[[], str | None] | None = None,
) -> int:
    """Run ``files`` against ``engine`` (None: ours, in this process) and print a line
    for each (only its failures if ``quiet``), then the closing count: 0 if all
    passed, 1 if any failed.

    ``stop``, called after each scenario, may end the run early with its reason: the
    closing count of the scenarios run, then the reason on stderr, and status 1."""
    passed = failed = 0
    for done, path in enumerate(files, 1):
        result = run_file(path, registry, engine)
        if result.passed:
            passed += 1
            if not quiet:
                print(result.line())
        else:
            failed += 1
            print(result.report())
        reason = stop() if stop is not None else None
        if reason is not None and done < len(files):
            print(f"{passed} passed, {failed} failed")
            sys.stdout.flush()
            print(
                f"oriflamme: error: {reason}: the run stops after {done} of {len(files)} scenarios",
                file=sys.stderr,
            )
            return 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def cards_command(args: argparse.Namespace, registry: Registry) -> int:
    """Every card of the chosen sets, with the plugin that provides it; a card with no
    ability, and an ability with no card, are flagged."""
    provided = registry.provided
    names = args.sets or tuple(sorted(provided.sets))
    registry.set_cards(names)  # an unknown set is reported here, in one line
    for name in names:
        card_set = provided.sets[name]
        _say(f"{card_set.title} (set {name}, plugin {card_set.plugin})")
        for card in card_set.cards:
            plugin = provided.ability_plugins.get(card.key)
            if plugin is None:
                note = "  [no ability implemented]"
            elif plugin != card_set.plugin:
                note = f"  [ability from plugin {plugin}]"
            else:
                note = ""
            _say(
                f"  {card.key:<14} {card.name_in(args.language):<20} "
                f"{card.type.value:<9} {card.text_in(args.language)}{note}"
            )
    orphans = sorted(set(provided.abilities) - set(provided.cards))
    for key in orphans:
        _say(
            f"[ability with no card] {key!r}: plugin {provided.ability_plugins[key]} "
            "implements it, but no set has that card"
        )
    return 0


def plugins_command(args: argparse.Namespace, registry: Registry) -> int:
    """The plugins in play, what each provides and the hooks it implements."""
    plugins = registry.describe()
    if args.json:
        print(json.dumps({"plugins": plugins, "problems": registry.problems}, indent=2))
        return 0
    for plugin in plugins:
        source = (
            "built in"
            if plugin["builtin"]
            else f"{plugin['distribution'] or 'registered by hand'} {plugin['version']}"
        )
        _say(f"{plugin['name']} ({source})")
        if plugin["problem"]:
            _say(f"  LEFT OUT: {plugin['problem']}")
            continue
        _say(f"  sets:      {', '.join(plugin['sets']) or '-'}")
        _say(f"  cards:     {', '.join(plugin['cards']) or '-'}")
        _say(f"  abilities: {', '.join(plugin['abilities']) or '-'}")
        if plugin["bots"]:
            _say(f"  bots:      {', '.join(plugin['bots'])}")
        for variant in plugin["variants"]:
            values = "/".join(
                str(v).lower() if isinstance(v, bool) else str(v) for v in variant["values"]
            )
            default = variant["default"]
            default = str(default).lower() if isinstance(default, bool) else default
            _say(
                f"  variant:   {variant['name']} = {values} (default {default}): {variant['help']}"
            )
        _say(f"  hooks:     {', '.join(plugin['hooks'])}")
    for problem in registry.problems:
        if not any(p["problem"] == problem for p in plugins):
            _say(f"not loaded: {problem}")
    return 0


def bots_command(args: argparse.Namespace, registry: Registry) -> int:
    """What ``--bots`` takes: the levels, weakest first, with the bot each one is; then
    the bot kinds, built in and the plugins', with their settings."""
    kinds = bot_kinds(registry)
    if args.json:
        named = [{"name": level.name, "bot": level.choice, "help": level.help} for level in LEVELS]
        listed = [
            {
                "name": kind.name,
                "plugin": kind.plugin or None,
                "help": kind.help,
                "settings": [
                    {
                        "name": s.name,
                        "type": s.type.__name__,
                        "default": s.default,
                        "values": s.bounds(),
                        "help": s.help,
                    }
                    for s in kind.settings
                ],
            }
            for kind in kinds.values()
        ]
        print(
            json.dumps({"levels": named, "bots": listed, "problems": registry.problems}, indent=2)
        )
        return 0
    width = max(len(level.name) for level in LEVELS)
    print("Levels, weakest first (--bots LEVEL):")
    for level in LEVELS:
        _say(f"  {level.name:<{width}} = {level.choice}: {level.help}")
    print("Bot kinds, with their settings (--bots KIND):")
    for kind in kinds.values():
        source = f" (plugin {kind.plugin})" if kind.plugin else ""
        _say(f"{kind.name}{source}: {kind.help}{'' if kind.settings else ' (no settings)'}")
        for setting in kind.settings:
            _say(
                f"  {kind.name}:{setting.name}=... {setting.bounds()}: "
                f"{_with_default(setting.help, setting.default)}"
            )
    print(
        "Choose them with --bots LEVEL or KIND[,...], settings as KIND:NAME=VALUE[:NAME=VALUE]; "
        "a setting left out keeps its default"
    )
    return 0


def _with_default(help_text: str, default: object) -> str:
    """A setting's help with its default. A help that gives the default itself is kept
    as it is: that default depends on other settings (ismcts's iterations: 300, none
    with seconds alone), which the help says and the value alone could not."""
    if "(default " in help_text:
        return help_text
    shown = "none" if default is None else str(default)
    return f"{help_text} (default {shown})"


def _say(text: str) -> None:
    """Prints a line of what plugins wrote (names, texts, helps, failures), escaped:
    words from a plugin are data, never a terminal's instructions."""
    print(escaped(text, newlines=True))
