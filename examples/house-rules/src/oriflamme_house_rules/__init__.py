"""House rules for oriflamme, as one plugin: two new cards (one of which asks its
family a question), a changed card, a changed rule, and a bot that knows the new
cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from oriflamme import Ability, BotKind, Effects, Variant, hookimpl
from oriflamme.events import Eliminated

from .bot import HOUSE_BOT
from .generous_heir import GENEROUS_HEIR, GenerousHeir
from .jester import Jester
from .pickpocket import Pickpocket

BOUNTY = Variant(
    name="bounty",
    values=(False, True),
    default=False,
    help="A face-down card eliminated with tokens on it pays them to the eliminator's owner.",
)


@hookimpl
def register_card_sets() -> Sequence[Traversable]:
    return [files("oriflamme_house_rules") / "house.yaml"]


@hookimpl
def register_abilities() -> Mapping[str, Ability]:
    return {"jester": Jester(), "pickpocket": Pickpocket()}


@hookimpl
def loadable_saves() -> bool:
    # A saved game waiting on the Pickpocket's question may be loaded: its one
    # continuation, Pickpocket.steal, checks what it is handed and changes nothing
    # but the game.
    return True


@hookimpl
def register_variants() -> Sequence[Variant]:
    return [GENEROUS_HEIR, BOUNTY]


@hookimpl
def register_bot_kinds() -> Sequence[BotKind]:
    # A bot for the house cards: the heuristic bot, with advice on the Jester.
    return [HOUSE_BOT]


@hookimpl
def replace_abilities(variants: Mapping[str, Any]) -> Mapping[str, Ability]:
    # A changed card: the base set's Heir is replaced, explicitly, and only in a game
    # whose variant says so.
    return {"heir": GenerousHeir()} if variants[GENEROUS_HEIR.name] else {}


@hookimpl
def card_eliminated(game: Effects, event: Eliminated) -> None:
    # A changed rule: the engine has returned the tokens of the eliminated card to the
    # supply (RULINGS R5); with a bounty, the eliminator's owner takes them instead.
    if game.variant(BOUNTY.name) and event.face_down and event.tokens and event.by is not None:
        game.gain(game.owner(event.by), event.tokens, event.by)
