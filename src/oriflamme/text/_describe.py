"""Words for what a family sees: cards, positions, the table, questions and answers.

Everything here reads an :class:`~oriflamme.Observation`, so a description can never
name a card the family may not see. Card names come from the game's card definitions.
What happened is told by :class:`~oriflamme.text.Story`.

Words from outside the engine (a plugin's card names, questions and labels, a save's,
the network's) are shown with each character a terminal would obey written out
(:func:`~oriflamme.text.escaped`): what is described here is printed as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from oriflamme import (
    FIRST,
    LAST,
    At,
    CardDef,
    CardId,
    Game,
    GameRules,
    Observation,
)
from oriflamme.text import escaped

from ._kinds import answer_text, question_text


class Words:
    """Names of cards and positions as one observation shows them: the
    :class:`~oriflamme.text.Naming` questions and answers are worded with (the
    sentences in English, card names in ``language``)."""

    def __init__(
        self, observation: Observation, definitions: Mapping[str, CardDef], language: str = "en"
    ) -> None:
        self.seen = observation
        self.definitions = definitions
        self.language = language  # of card names: a code the card data names (fr, pl)

    def short(self, card: CardId) -> str:
        """``card``'s name alone (in :attr:`language`), or ``face-down card`` if it is hidden."""
        key = self.seen.key(card)
        if key is None:
            return "face-down card"
        definition = self.definitions.get(key)
        return escaped(definition.name_in(self.language) if definition is not None else key)

    def card(self, card: CardId | None) -> str:
        """``card``'s printed family and name, e.g. ``blue Soldier``."""
        if card is None:
            return "a card"
        colour = escaped(self.seen.colours[card])
        if self.seen.key(card) is None:
            return f"{colour}'s face-down card"
        return f"{colour} {self.short(card)}"

    def queue_card(self, card: CardId) -> str:
        seen = self.seen
        owner = seen.owner(card)
        bribed = "" if owner == seen.colours[card] else f", owned by {escaped(owner)} (Bribery)"
        tokens = seen.tokens_on(card)
        counted = f", {tokens} token{'s' * (tokens != 1)}" if tokens else ""
        if seen.key(card) is None:
            return f"{escaped(seen.colours[card])}'s face-down card{counted}{bribed}"
        face = "face up" if seen.is_up(card) else "face down, yours"
        return f"{self.card(card)} ({face}{counted}{bribed})"

    def position(self, index: int) -> str:
        """How the top card of position ``index`` looks (positions count from 1 here)."""
        return f"position {index + 1}: {self.queue_card(self.seen.top(index))}"

    def spot(self, at: At) -> str:
        if at == FIRST:
            return "at the first end of the queue" if self.seen.queue else "to start the queue"
        if at == LAST:
            return "at the last end of the queue"
        return f"on top of {self.position(int(at))}"


def queue_lines(words: Words) -> list[str]:
    lines = []
    for index, stack in enumerate(words.seen.queue):
        text = words.queue_card(stack[-1])
        if len(stack) > 1:
            under = [words.card(card) for card in stack[:-1]]
            text += f"   [covers: {', '.join(reversed(under))}]"
        lines.append(f"  {index + 1:>2}  {text}")
    return lines or ["  (empty)"]


def in_card_order(seen: Observation, cards: Iterable[CardId]) -> list[CardId]:
    """``cards`` in the order of the game's card list (a card ``seen``'s family may not
    know last), as the table lists a hand: a list of the same cards, say the terminal's
    choices, reads in the same order."""
    order = {key: i for i, key in enumerate(seen.cards)}
    return sorted(cards, key=lambda card: order.get(seen.key(card) or "", len(order)))


def view_lines(words: Words) -> list[str]:
    """The table as ``words``' family sees it: round, Influence, queue, its own cards,
    and the face-up piles (what the terminal shows before each question)."""
    seen = words.seen
    you = seen.family
    lines = [
        f"=== Round {seen.round} of 6, {seen.phase} phase, first player: {seen.first_player} ===",
        "Influence: "
        + ", ".join(f"{f} {n}" + (" (you)" if f == you else "") for f, n in seen.influence.items()),
    ]
    arrow = "left to right" if seen.direction == "rightward" else "right to left"
    lines.append(f"Queue, in resolution order (on the table it runs {arrow}):")
    lines += queue_lines(words)

    def listed(cards: tuple[CardId, ...]) -> str:
        return ", ".join(words.short(c) for c in in_card_order(seen, cards))

    if you is not None:
        lines.append("Your hand: " + (listed(seen.hand) or "empty"))
        lines.append("Set aside (only you see them): " + (listed(seen.set_aside) or "none"))
    reserves = [f"{f}: {listed(cs)}" for f, cs in seen.reserve.items() if cs]
    if reserves:
        lines.append("Reserves (face up): " + "; ".join(reserves))
    for name, pile in (("Discarded", seen.discarded), ("Eliminated", seen.eliminated)):
        cards = [f"{f}: {listed(cs)}" for f, cs in pile.items() if cs]
        if cards:
            lines.append(f"{name}: " + "; ".join(cards))
    return [escaped(line) for line in lines]  # family names too: a save's, say


def table(observation: Observation, rules: GameRules, *, language: str = "en") -> str:
    """The table as ``observation``'s family reads it, as the terminal shows it (round,
    Influence, queue, its own hand and set-aside cards, the face-up piles), then its
    question and numbered answers if it is asked, else whose turn it is, or who won. It
    names only the cards this family may see (a spectator: only public ones). ``rules``
    are the game's (``Game.rules``, or a registry's for the observation's sets, variants
    and cards): card names and texts, and how each kind of question is worded. Card
    names are in ``language`` (a code the card data names; English where it has none)."""
    words = Words(observation, rules.definitions, language)
    lines = view_lines(words)
    decision = observation.decision
    if decision is None:
        winners = observation.winners
        if len(winners) > 1:
            lines.append(f"The game is over: a shared win for {', '.join(winners)}.")
        else:
            lines.append(f"The game is over: {winners[0]} wins.")
    elif decision.family != observation.family:
        about = f" about {words.card(decision.card)}" if decision.card is not None else ""
        kind = decision.kind
        article = "an" if kind[:1] in "aeiou" else "a"
        lines.append(f"It is {decision.family}'s turn: {article} {kind} question{about}.")
    else:
        asked = rules.kinds[decision.kind]
        lines.append(question_text(asked, words, decision))
        for number, option in enumerate(decision.options, 1):
            lines.append(f"  {number:>2}. {answer_text(asked, words, decision, option)}")
    return "\n".join(lines)


def game_table(game: Game, *, language: str = "en") -> str:
    """The table as a spectator sees it and whose turn it is (:func:`table` of
    ``game.observe(None)`` under a line naming the families): public only, never a
    hand, a set-aside card or a face-down card's name, so it may be shown to every
    family. ``table(game.observe(family), game.rules)`` is what one family reads."""
    families = ", ".join(game.families)
    head = f"Oriflamme ({families}), as a spectator sees it: no hand, no face-down card"
    return f"{head}\n{table(game.observe(None), game.rules, language=language)}"
