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
from ._languages import Templates, colour, counted


class Words:
    """Names of cards and positions as one observation shows them: the
    :class:`~oriflamme.text.Naming` questions and answers are worded with, in
    ``language`` (``en``, ``fr``, ``pl``; card names in any language the card data
    names, the sentences in English where the project has none)."""

    def __init__(
        self, observation: Observation, definitions: Mapping[str, CardDef], language: str = "en"
    ) -> None:
        self.seen = observation
        self.definitions = definitions
        self.language = language  # a code the card data names (fr, pl)

    def family(self, family: str, case: str = "nominative") -> str:
        """``family`` as this language names it (``Bleu`` for ``blue`` in French), in
        ``case`` where the language declines it (``Niebieskiego``)."""
        return escaped(colour(family, self.language, case))

    def short(self, card: CardId) -> str:
        """``card``'s name alone (in :attr:`language`), or ``face-down card`` if it is hidden."""
        key = self.seen.key(card)
        if key is None:
            return _say(self.language, "face_down")
        definition = self.definitions.get(key)
        return escaped(definition.name_in(self.language) if definition is not None else key)

    def card(self, card: CardId | None) -> str:
        """``card``'s printed family and name, e.g. ``blue Soldier``."""
        if card is None:
            return _say(self.language, "a_card")
        colour = self.family(self.seen.colours[card])
        if self.seen.key(card) is None:
            return _say(self.language, "card.hidden", colour=colour)
        return _say(self.language, "card", colour=colour, name=self.short(card))

    def queue_card(self, card: CardId) -> str:
        """A card in the queue as the table shows it: its name, whose it is, its face and
        its tokens; a bribed card says whose colour it is and whose it is now, each
        once (``Reine de Rouge (face visible), désormais à Bleu par corruption``)."""
        seen = self.seen
        language = self.language
        owner = seen.owner(card)
        printed = seen.colours[card]
        tokens = seen.tokens_on(card)
        on_it = (
            _say(language, "tokens", tokens=counted(tokens, "token", language)) if tokens else ""
        )
        bribed = ".bribed" if owner != printed else ""
        # A bribed card's label says whose card it is and by whom it was bribed.
        case = "genitive" if bribed else "nominative"
        names = {"owner": self.family(owner, case), "colour": self.family(printed, case)}
        names["tokens"] = on_it
        if seen.key(card) is None:
            return _say(language, f"queue.hidden{bribed}", **names)
        face = _say(language, "face_up" if seen.is_up(card) else "face_down_yours")
        return _say(language, f"queue.card{bribed}", name=self.short(card), face=face, **names)

    def position(self, index: int) -> str:
        """How the top card of position ``index`` looks (positions count from 1 here)."""
        return _say(
            self.language,
            "position",
            position=index + 1,
            card=self.queue_card(self.seen.top(index)),
        )

    def spot(self, at: At) -> str:
        language = self.language
        if at == FIRST:
            return _say(language, "spot.first" if self.seen.queue else "spot.start")
        if at == LAST:
            return _say(language, "spot.last")
        index = int(at)
        return _say(
            language, "spot.on", position=index + 1, card=self.queue_card(self.seen.top(index))
        )


def queue_lines(words: Words) -> list[str]:
    lines = []
    for index, stack in enumerate(words.seen.queue):
        text = words.queue_card(stack[-1])
        if len(stack) > 1:
            under = [words.card(card) for card in stack[:-1]]
            text += _say(words.language, "covers", cards=", ".join(reversed(under)))
        lines.append(f"  {index + 1:>2}  {text}")
    return lines or [_say(words.language, "queue.empty")]


def in_card_order(seen: Observation, cards: Iterable[CardId]) -> list[CardId]:
    """``cards`` in the order of the game's card list (a card ``seen``'s family may not
    know last), as the table lists a hand: a list of the same cards, say the terminal's
    choices, reads in the same order."""
    order = {key: i for i, key in enumerate(seen.cards)}
    return sorted(cards, key=lambda card: order.get(seen.key(card) or "", len(order)))


def phase_name(phase: str, language: str) -> str:
    """``placement phase``, ``phase de résolution``... (an unknown phase as it is named)."""
    if f"phase.{phase}" in _say.table:
        return _say(language, f"phase.{phase}")
    return _say(language, "phase.other", phase=phase)


def scores(words: Words, influence: Iterable[tuple[str, int]]) -> str:
    """``red 3, blue 5 (you)``: each family's Influence, the reader's marked."""
    you = words.seen.family
    mark = _say(words.language, "you_mark")
    return ", ".join(
        f"{words.family(family)} {score}" + (mark if family == you else "")
        for family, score in influence
    )


def view_lines(words: Words) -> list[str]:
    """The table as ``words``' family sees it: round, Influence, queue, its own cards,
    and the face-up piles (what the terminal shows before each question)."""
    seen = words.seen
    language = words.language
    you = seen.family
    lines = [
        _say(
            language,
            "header",
            round=seen.round,
            phase=phase_name(seen.phase, language),
            first=words.family(seen.first_player),
        ),
        _say(language, "influence", scores=scores(words, seen.influence.items())),
    ]
    arrow = "arrow.right" if seen.direction == "rightward" else "arrow.left"
    lines.append(_say(language, "queue", arrow=_say(language, arrow)))
    lines += queue_lines(words)

    def listed(cards: tuple[CardId, ...]) -> str:
        return ", ".join(words.short(c) for c in in_card_order(seen, cards))

    def piles(pile: Mapping[str, tuple[CardId, ...]]) -> str:
        return _say(language, "piles").join(
            _say(language, "pile", family=words.family(f), cards=listed(cs))
            for f, cs in pile.items()
            if cs
        )

    if you is not None:
        lines.append(
            _say(language, "hand", cards=listed(seen.hand) or _say(language, "hand.empty"))
        )
        aside = listed(seen.set_aside) or _say(language, "set_aside.none")
        lines.append(_say(language, "set_aside", cards=aside))
    for name, pile in (
        ("reserves", seen.reserve),
        ("discarded", seen.discarded),
        ("eliminated", seen.eliminated),
    ):
        if any(pile.values()):
            lines.append(_say(language, name, cards=piles(pile)))
    return [escaped(line) for line in lines]  # family names too: a save's, say


def table(observation: Observation, rules: GameRules, *, language: str = "en") -> str:
    """The table as ``observation``'s family reads it, as the terminal shows it (round,
    Influence, queue, its own hand and set-aside cards, the face-up piles), then its
    question and numbered answers if it is asked, else whose turn it is, or who won. It
    names only the cards this family may see (a spectator: only public ones). ``rules``
    are the game's (``Game.rules``, or a registry's for the observation's sets, variants
    and cards): card names and texts, and how each kind of question is worded. It is in
    ``language`` (``en``, ``fr``, ``pl``; card names in any language the card data names,
    the sentences in English where the project has none)."""
    words = Words(observation, rules.definitions, language)
    lines = view_lines(words)
    decision = observation.decision
    if decision is None:
        winners = [words.family(winner) for winner in observation.winners]
        if len(winners) > 1:
            lines.append(_say(language, "over.shared", winners=", ".join(winners)))
        else:
            lines.append(_say(language, "over", winner=winners[0]))
    elif decision.family != observation.family:
        about = ""
        if decision.card is not None:
            about = _say(language, "turn.about", card=words.card(decision.card))
        kind = decision.kind
        article = "an" if kind[:1] in "aeiou" else "a"
        if f"kind.{kind}" in _say.table:
            kind = _say(language, f"kind.{kind}")
        lines.append(
            _say(
                language,
                f"turn.{article}",
                family=words.family(decision.family),
                kind=escaped(kind),
                about=about,
            )
        )
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
    families = ", ".join(escaped(colour(family, language)) for family in game.families)
    head = _say(language, "spectator", families=families)
    return f"{head}\n{table(game.observe(None), game.rules, language=language)}"


#: The table's sentences, in each language.
_say = Templates(
    "table",
    {
        "face_down": {"en": "face-down card", "fr": "carte face cachée", "pl": "zakryta karta"},
        "a_card": {"en": "a card", "fr": "une carte", "pl": "karta"},
        "card.hidden": {
            "en": "{colour}'s face-down card",
            "fr": "carte face cachée ({colour})",
            "pl": "zakryta karta ({colour})",
        },
        "card": {"en": "{colour} {name}", "fr": "{name} ({colour})", "pl": "{name} ({colour})"},
        "tokens": {"en": ", {tokens}", "fr": ", {tokens}", "pl": ", {tokens}"},
        "face_up": {"en": "face up", "fr": "face visible", "pl": "karta odkryta"},
        "face_down_yours": {
            "en": "face down, yours",
            "fr": "face cachée, à vous",
            "pl": "karta zakryta, twoja",
        },
        "queue.hidden": {
            "en": "{colour}'s face-down card{tokens}",
            "fr": "carte face cachée ({colour}){tokens}",
            "pl": "zakryta karta ({colour}){tokens}",
        },
        "queue.hidden.bribed": {
            "en": "{owner}'s face-down card{tokens} (bribed, {colour}'s card)",
            "fr": "carte face cachée de {colour}{tokens}, désormais à {owner} par corruption",
            "pl": "zakryta karta {colour}{tokens}, przekupiona przez {owner}",
        },
        "queue.card": {
            "en": "{colour} {name} ({face}{tokens})",
            "fr": "{name} ({colour}, {face}{tokens})",
            "pl": "{name} ({colour}, {face}{tokens})",
        },
        "queue.card.bribed": {
            "en": "{owner}'s {name} ({face}{tokens}, bribed, {colour}'s card)",
            "fr": "{name} de {colour} ({face}{tokens}), désormais à {owner} par corruption",
            "pl": "{name} ({face}{tokens}): karta {colour} przekupiona przez {owner}",
        },
        "position": {
            "en": "position {position}: {card}",
            "fr": "position {position} : {card}",
            "pl": "pozycja {position}: {card}",
        },
        "spot.start": {
            "en": "to start the queue",
            "fr": "pour commencer la File",
            "pl": "jako pierwszą kartę Kolejki",
        },
        "spot.first": {
            "en": "at the first end of the queue",
            "fr": "en tête de la File",
            "pl": "na początku Kolejki",
        },
        "spot.last": {
            "en": "at the last end of the queue",
            "fr": "en queue de la File",
            "pl": "na końcu Kolejki",
        },
        "spot.on": {
            "en": "on top of position {position}: {card}",
            "fr": "par-dessus la position {position} : {card}",
            "pl": "na wierzch pozycji {position}: {card}",
        },
        "covers": {
            "en": "   [covers: {cards}]",
            "fr": "   [recouvre : {cards}]",
            "pl": "   [przykrywa: {cards}]",
        },
        "queue.empty": {"en": "  (empty)", "fr": "  (vide)", "pl": "  (pusta)"},
        "phase.placement": {
            "en": "placement phase",
            "fr": "phase de placement",
            "pl": "faza rozstawiania",
        },
        "phase.resolution": {
            "en": "resolution phase",
            "fr": "phase de résolution",
            "pl": "faza rozpatrywania",
        },
        "phase.end": {"en": "end phase", "fr": "fin de la partie", "pl": "koniec gry"},
        "phase.other": {"en": "{phase} phase", "fr": "phase {phase}", "pl": "faza {phase}"},
        "header": {
            "en": "=== Round {round} of 6, {phase}, first player: {first} ===",
            "fr": "=== Tour {round} sur 6, {phase}, premier joueur : {first} ===",
            "pl": "=== Runda {round} z 6, {phase}, pierwszy gracz: {first} ===",
        },
        "you_mark": {"en": " (you)", "fr": " (vous)", "pl": " (ty)"},
        "influence": {
            "en": "Influence: {scores}",
            "fr": "Influence : {scores}",
            "pl": "Wpływ: {scores}",
        },
        "arrow.right": {
            "en": "left to right",
            "fr": "de gauche à droite",
            "pl": "od lewej do prawej",
        },
        "arrow.left": {
            "en": "right to left",
            "fr": "de droite à gauche",
            "pl": "od prawej do lewej",
        },
        "queue": {
            "en": "Queue, in resolution order (on the table it runs {arrow}):",
            "fr": "File, dans l'ordre de résolution (sur la table, elle va {arrow}) :",
            "pl": "Kolejka w kolejności rozpatrywania (na stole biegnie {arrow}):",
        },
        "hand": {
            "en": "Your hand: {cards}",
            "fr": "Votre main : {cards}",
            "pl": "Twoja ręka: {cards}",
        },
        "hand.empty": {"en": "empty", "fr": "vide", "pl": "pusta"},
        "set_aside": {
            "en": "Set aside (only you see them): {cards}",
            "fr": "Mises de côté (vous seul les voyez) : {cards}",
            "pl": "Odłożone na bok (widzisz je tylko ty): {cards}",
        },
        "set_aside.none": {"en": "none", "fr": "aucune", "pl": "brak"},
        "piles": {"en": "; ", "fr": " ; ", "pl": "; "},
        "pile": {"en": "{family}: {cards}", "fr": "{family} : {cards}", "pl": "{family}: {cards}"},
        "reserves": {
            "en": "Reserves (face up): {cards}",
            "fr": "Réserves (face visible) : {cards}",
            "pl": "Rezerwy (odkryte): {cards}",
        },
        "discarded": {
            "en": "Discarded: {cards}",
            "fr": "Défaussées : {cards}",
            "pl": "Odrzucone: {cards}",
        },
        "eliminated": {
            "en": "Eliminated: {cards}",
            "fr": "Éliminées : {cards}",
            "pl": "Zlikwidowane: {cards}",
        },
        "over": {
            "en": "The game is over: {winner} wins.",
            "fr": "La partie est terminée : {winner} gagne.",
            "pl": "Koniec gry: {winner} wygrywa.",
        },
        "over.shared": {
            "en": "The game is over: a shared win for {winners}.",
            "fr": "La partie est terminée : victoire partagée entre {winners}.",
            "pl": "Koniec gry: wspólna wygrana ({winners}).",
        },
        "turn.about": {
            "en": " about {card}",
            "fr": " sur la carte {card}",
            "pl": " (karta: {card})",
        },
        "turn.a": {
            "en": "It is {family}'s turn: a {kind} question{about}.",
            "fr": "C'est au tour de {family} : question de {kind}{about}.",
            "pl": "Teraz decyduje {family}: pytanie o {kind}{about}.",
        },
        "turn.an": {
            "en": "It is {family}'s turn: an {kind} question{about}.",
            "fr": "C'est au tour de {family} : question de {kind}{about}.",
            "pl": "Teraz decyduje {family}: pytanie o {kind}{about}.",
        },
        # A kind's name in a question someone else answers (English: the kind itself).
        "kind.place": {"en": "place", "fr": "placement", "pl": "rozstawienie"},
        "kind.reveal": {"en": "reveal", "fr": "révélation", "pl": "ujawnienie"},
        "kind.target": {"en": "target", "fr": "cible", "pl": "cel"},
        "kind.move": {"en": "move", "fr": "déplacement", "pl": "przesunięcie"},
        "kind.twin": {"en": "twin", "fr": "placement du jumeau", "pl": "położenie bliźniaka"},
        "kind.choose": {"en": "choose", "fr": "choix", "pl": "wybór"},
        "spectator": {
            "en": "Oriflamme ({families}), as a spectator sees it: no hand, no face-down card",
            "fr": "Oriflamme ({families}), vue d'un spectateur : aucune main, aucune carte "
            "face cachée",
            "pl": "Oriflamme ({families}) oczami widza: bez kart na ręce i bez zakrytych kart",
        },
    },
)
