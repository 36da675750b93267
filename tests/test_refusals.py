"""Refusals keep secrets: whoever sends an answer, the message that refuses it names
no card the sender may not see (docs/rulings.md P4).

Seeded random games of 3, 4 and 5 families (base, Ablaze, both). At every decision,
wrong answers of every shape are sent by every family and by an unnamed sender; each
refusal's message is searched for the key and the name of every card hidden from that
sender (another family's hand or set-aside, a face-down card of another family), except
where the sender can see a card of the same name. The sender's own answer, repeated in
the message, is taken out before the search: it is what they sent.
"""

from __future__ import annotations

import random
import re

import pytest

from oriflamme import Decision, Game, IllegalAnswer, Registry

from .helpers import new_game
from .test_properties import KINDS, wrong_answers

GAMES = 2  # per family count and kind of game: 18 games, every decision of each


def hidden_words(game: Game, sender: str | None) -> set[str]:
    """The keys and names of cards hidden from ``sender``, none of which it sees elsewhere."""
    seen = game.observe(sender)
    visible = set(seen.public_keys.values()) | set(seen.own_keys.values())
    hidden = {label.split(".")[1] for label in game.position().ids} - visible
    words: set[str] = set()
    for key in hidden:
        definition = game.rules.definitions[key]
        words |= {key, key.replace("_", " "), definition.name.lower()}
        words |= {name.lower() for _, name in definition.names}
    return words


def answers_to_send(game: Game, decision: Decision) -> list[object]:
    """Wrong answers, and answers that name cards by key or label as a client might."""
    labels = list(game.position().ids)
    keys = sorted({label.split(".")[1] for label in labels})
    ids = list(range(len(game.cards) * len(game.families)))
    sent: list[object] = list(wrong_answers(game, decision))
    sent += [[card, "last"] for card in ids] + [[card, 0] for card in ids[:: len(ids) // 7 or 1]]
    sent += [{"card": label, "at": "first"} for label in labels[:5]]
    sent += keys[:4] + [-1, 99, [], {}]
    return sent


def parts(answer: object) -> list[object]:
    """``answer`` and every value inside it: a refusal may repeat any of them."""
    found = [answer]
    if isinstance(answer, dict):
        found += [p for value in answer.values() for p in parts(value)]
    elif isinstance(answer, list | tuple):
        found += [p for value in answer for p in parts(value)]
    return found


def leaks(message: str, answer: object, words: set[str]) -> list[str]:
    text = message.lower()
    for sent in sorted((repr(p).lower()[:77] for p in parts(answer)), key=len, reverse=True):
        text = text.replace(sent, "")
    return [w for w in words if re.search(rf"\b{re.escape(w)}\b", text)]


def check_refusals(game: Game, decision: Decision, where: str) -> int:
    before = game.to_json()
    tried = 0
    senders: list[str | None] = [*game.families, None]
    words = {sender: hidden_words(game, sender) for sender in senders}
    for answer in answers_to_send(game, decision):
        legal = game.legal(answer)
        for sender in senders:
            if legal and sender in (decision.family, None):
                continue  # it would be played: not a refusal
            with pytest.raises(IllegalAnswer) as refused:
                game.answer(answer, family=sender)
            found = leaks(str(refused.value), answer, words[sender])
            assert not found, (
                f"{where}: {answer!r} sent by {sender} to {decision.family}'s {decision.kind} "
                f"decision is refused naming {found}: {refused.value}"
            )
            tried += 1
    assert game.to_json() == before, f"{where}: a refusal changed the game"
    return tried


@pytest.mark.parametrize("families", [3, 4, 5])
@pytest.mark.parametrize("kind", list(KINDS))
def test_no_refusal_names_a_card_the_sender_cannot_see(
    registry: Registry, families: int, kind: str
) -> None:
    tried = 0
    kinds: set[str] = set()
    for seed in range(7_000 + 100 * families, 7_000 + 100 * families + GAMES):
        print(f"seed {seed}: {families} families, {kind}")
        game = new_game(registry, seed, families, sets=KINDS[kind])
        rng = random.Random(seed)
        step = 0
        while (decision := game.decision) is not None:
            tried += check_refusals(game, decision, f"seed {seed} step {step}")
            kinds.add(decision.kind)
            game.answer_option(int(rng.random() * len(decision.options)))
            step += 1
    print(f"{tried} refusals checked over decisions of kinds {sorted(kinds)}")
    assert {"place", "reveal", "target"} <= kinds
