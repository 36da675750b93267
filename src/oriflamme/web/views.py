"""The view: what one seat (or a spectator) is sent, on every channel.

A view is built from one :class:`~oriflamme.Observation` and the game's public rules
(card names and texts, how each kind of question reads), never from the game itself,
so it can hold nothing that family may not see: the log (the story the terminal tells,
:class:`~oriflamme.text.Story`), the question and the answers' words all come from the
same observation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oriflamme import GameRules, Observation
from oriflamme.text import Words, answer_text, question_text, story_lines


def build_view(
    observation: Observation,
    rules: GameRules,
    *,
    game_id: str,
    step: int,
    seats: Mapping[str, str],
    log: list[str] | None = None,
    events: bool = True,
    language: str = "en",
) -> dict[str, Any]:
    """``observation`` as JSON-ready data, with the words a person reads beside it.

    ``seats`` says who plays each family (``person`` or a bot kind): public, as at a
    table. ``step`` is how many answers the game has had. ``log``: the story of this
    observation when it has been told already (a :class:`~oriflamme.text.Story` that
    read every observation of this family so far), else it is told here whole.
    Without ``events``, the view has no ``events`` (a caller that keeps them: they are
    the same for everyone). ``language`` (``en``, ``fr``, ``pl``): that of the
    sentences, card names and card texts (see :mod:`.languages`).
    """
    data = observation.to_dict(events=events)
    words = Words(observation, rules.definitions, language)
    decision = observation.decision
    asked = decision is not None and decision.family == observation.family
    if asked and decision is not None:
        kind = rules.kinds[decision.kind]
        answers = data["decision"]["options"]
        texts = [answer_text(kind, words, decision, option) for option in decision.options]
        question: str | None = question_text(kind, words, decision)
    else:
        answers, texts, question = [], [], None
    definitions = rules.definitions
    keys = [key for key in dict.fromkeys(observation.cards) if key in definitions]
    over = observation.over
    data.update(
        id=game_id,
        seat=observation.family,
        step=step,
        seats=dict(seats),
        answers=answers,
        answer_texts=texts,
        question=question,
        waiting_for=decision.family if decision is not None else None,
        language=language,
        log_from=0,  # a websocket's frame sends only what is new: see docs/web.md
        log=story_lines(observation, definitions, language) if log is None else log,
        events_from=0,
        names={key: definitions[key].name_in(language) for key in keys},
        texts={key: definitions[key].text_in(language) for key in keys},
        bribes={str(card): family for card, family in observation.bribes.items()},
        scores=dict(observation.influence) if over else None,
        winners=list(observation.winners) if over else None,
    )
    return data
