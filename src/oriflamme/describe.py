"""Words for what a family sees: cards, positions, answers and events.

Everything here reads a :class:`~oriflamme.View`, so a description can never name
a card the family may not see.
"""

from __future__ import annotations

from .core.decisions import FIRST, LAST, Answer, Decision, Placement
from .core.events import (
    Bribed,
    Discarded,
    Eliminated,
    Event,
    Gained,
    GameEnded,
    Lost,
    Moved,
    Placed,
    Revealed,
    RoundStarted,
    Stolen,
    TokenAdded,
)
from .core.views import CardView, View

#: Words for the named options of `choose` decisions the built-in cards ask.
CHOICES = {
    "gain": "gain: take 1 Influence for this token",
    "repeat": "repeat: return this token, and a Character of yours acts again",
}


def name(view: View, card: str | None) -> str:
    """``card``'s printed family and English name, e.g. 'blue Soldier'."""
    if card is None:
        return "a face-down card"
    game = view.game
    return f"{game.family_of[card]} {game.rules.definitions[game.key_of[card]].name}"


def short(view: View, card: str) -> str:
    """``card``'s English name alone."""
    game = view.game
    return game.rules.definitions[game.key_of[card]].name


def position_text(view: View, index: int) -> str:
    """How the top card of position ``index`` looks to this family (positions count from 1)."""
    stack = view.queue[index]
    top = stack[-1]
    return f"position {index + 1}: {_card_view_text(view, top)}"


def _card_view_text(view: View, card: CardView) -> str:
    owner = "" if card.owner == card.family else f", owned by {card.owner} (Bribery)"
    tokens = f", {card.tokens} token{'s' * (card.tokens != 1)}" if card.tokens else ""
    if card.card is None:
        return f"{card.family}'s face-down card{tokens}"
    face = "face up" if card.up else "face down, yours"
    return f"{name(view, card.card)} ({face}{tokens}{owner})"


def queue_lines(view: View) -> list[str]:
    lines = []
    for index, stack in enumerate(view.queue):
        text = _card_view_text(view, stack[-1])
        if len(stack) > 1:
            under = [
                name(view, c.card) if c.card is not None else f"{c.family} card" for c in stack[:-1]
            ]
            text += f"   [covers: {', '.join(reversed(under))}]"
        lines.append(f"  {index + 1:>2}  {text}")
    return lines or ["  (empty)"]


def spot_text(view: View, at: str | int) -> str:
    if at == FIRST:
        return "at the first end of the queue" if view.game.queue else "to start the queue"
    if at == LAST:
        return "at the last end of the queue"
    return f"on top of {position_text(view, int(at))}"


def answer_text(view: View, decision: Decision, answer: Answer) -> str:
    """One legal answer, in words."""
    kind = decision.kind
    if kind == "place":
        assert isinstance(answer, Placement)
        return f"{short(view, answer.card)} {spot_text(view, answer.at)}"
    if kind == "reveal":
        return "reveal it" if answer else "keep it face down (it gets 1 token)"
    if kind == "target":
        assert isinstance(answer, int)
        return position_text(view, answer)
    if kind == "move":
        assert isinstance(answer, int)
        return f"make it position {answer + 1} once moved"
    if kind == "twin":
        return f"put the Twin {spot_text(view, answer)}"  # type: ignore[arg-type]
    return CHOICES.get(str(answer), str(answer))


def question_text(view: View, decision: Decision) -> str:
    card = decision.card
    if decision.kind == "place":
        return "Place a card from your hand, face down."
    if decision.kind == "reveal":
        return f"Your {name(view, card)} is next: reveal it?"
    if decision.kind == "target":
        return f"Your {name(view, card)} chooses a card:"
    if decision.kind == "move":
        return f"Your {name(view, card)}: where should the card go?"
    if decision.kind == "twin":
        return f"Your {name(view, card)} places its Twin:"
    return f"Your {name(view, card)} chooses:"


def event_text(view: View, event: Event) -> str | None:
    """One event as a line of text, or None for events not worth a line."""
    you = view.family

    def who(family: str) -> str:
        return "you" if family == you else family

    if isinstance(event, RoundStarted):
        first = "you place" if event.first_player == you else f"{event.first_player} places"
        return f"Round {event.round} begins; {first} first."
    if isinstance(event, Placed):
        what = name(view, event.card) if event.card is not None else "a card"
        where = (
            f"on top of position {event.position + 1}"
            if event.on is not None
            else (
                "at the first end" if event.position == 0 else f"as position {event.position + 1}"
            )
        )
        return f"{who(event.family)} placed {what} {where}."
    if isinstance(event, TokenAdded):
        return (
            f"{who(event.family)} kept the card at position {event.position + 1} face "
            f"down ({event.tokens} token{'s' * (event.tokens != 1)} on it)."
        )
    if isinstance(event, Revealed):
        gained = f" and gained {event.gained}" if event.gained else ""
        return f"{who(event.family)} revealed {name(view, event.card)}{gained}."
    if isinstance(event, Eliminated):
        by = f" by {name(view, event.by)}" if event.by else ""
        return f"{name(view, event.card)} was eliminated{by}."
    if isinstance(event, Discarded):
        return f"{name(view, event.card)} was discarded."
    if isinstance(event, Bribed):
        return (
            f"{who(event.family)} bribed {name(view, event.card)}: it now belongs to "
            f"{who(event.family)}."
        )
    if isinstance(event, Moved):
        return f"{name(view, event.card)} moved to position {event.to + 1}."
    if isinstance(event, Gained):
        return f"  {who(event.family)} +{event.amount}"
    if isinstance(event, Lost):
        return f"  {who(event.family)} -{event.amount}"
    if isinstance(event, Stolen):
        return f"  {who(event.thief)} stole {event.amount} from {who(event.victim)}"
    if isinstance(event, GameEnded):
        return "The game is over."
    return None
