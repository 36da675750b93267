"""Impersonation: eliminate an adjacent card. If it is an opponent's character,
replace it with the same character, revealed, taken from your discarded,
eliminated or set aside cards. Discard Impersonation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oriflamme import Ability

from .prince import TWIN

if TYPE_CHECKING:
    from oriflamme import CardId, Effects

# Where a replacement may come from (RULINGS A-Impersonation); a Twin never from
# the set-aside cards (it is never among them anyway: it waits in the reserve).
ZONES = ("discarded", "eliminated", "set_aside")


class Impersonation(Ability):
    # RULINGS A-Impersonation. The engine discards it afterwards
    # (discard_after_use in cards/ablaze.yaml).
    def activate(self, game: Effects, card: CardId) -> None:
        game.ask_target(card, game.adjacent(game.index(card)), self.impersonate)

    def impersonate(self, game: Effects, card: CardId, position: int) -> None:
        family = game.owner(card)
        target = game.top(position)
        # Owner at that moment, Bribery counting; alone in its position.
        # docs/rulings.md P14: the owner at that moment decides, so a family's own
        # card bribed by an opponent counts as an opponent's.
        replace = (
            game.is_character(target)
            and game.owner(target) != family
            and len(game.queue[position]) == 1
        )
        after = position > game.index(card)  # which side of the Impersonation it was
        key = game.key(target)
        game.eliminate(target, by=card)  # gain 1
        if not replace:
            return
        replacement = self.replacement(game, family, key)
        here = game.position(card)
        # docs/rulings.md P16: no replacement once the Impersonation itself is gone.
        if replacement is None or here is None:
            return  # nothing of that name to put in (or the Impersonation is gone)
        zone, chosen = replacement
        game.take(zone, family, chosen)
        # Its place is beside the Impersonation, on the side the eliminated card
        # was: an index taken before the elimination could be stale, since a
        # Prince or Twin lost with it may have closed a gap. Put face up, never
        # revealed: a Prince put in this way does not bring its Twin.
        game.insert(chosen, family, here + 1 if after else here, face_up=True)

    @staticmethod
    def replacement(game: Effects, family: str, key: str) -> tuple[str, CardId] | None:
        """The family's own card named ``key`` and the zone it is in, if it has one.

        docs/rulings.md P13: a family holds one copy of each card, so there
        is at most one; with a card list that repeats a key, the first found in
        discarded, eliminated, then set-aside cards is taken without asking.
        """
        for zone in ZONES:
            if zone == "set_aside" and key == TWIN:
                continue
            for candidate in game.pile(zone)[family]:
                if game.key(candidate) == key:
                    return zone, candidate
        return None
