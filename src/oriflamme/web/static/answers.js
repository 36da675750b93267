// Whose turn it is, what they must decide and, when it is this seat's turn, the legal
// answers as buttons: exactly the view's `answers`, nothing else. A placement may be
// chosen in two steps (the card, then where), which reaches every legal answer.

import { cardName } from "./cards.js";
import { fill, h } from "./dom.js";
import { familyClass } from "./families.js";

const DECIDING = {
  place: "is placing a card in the queue",
  reveal: "is deciding whether to reveal a face-down card",
  target: "is choosing a target",
  move: "is choosing where a card moves",
  twin: "is choosing where the Twin goes",
  choose: "is making a choice",
};

/** Whether `view`'s answers are placements, [card id, where], to show in two steps. */
export function isPlacement(view) {
  return (
    view.decision?.kind === "place" &&
    view.answers.length > 0 &&
    view.answers.every((answer) => Array.isArray(answer) && answer.length === 2)
  );
}

/** The queue positions a placement of `card` may stack on. */
export function stackSpots(view, card) {
  return new Set(
    view.answers.filter((a) => Array.isArray(a) && a[0] === card && Number.isInteger(a[1])).map((a) => a[1]),
  );
}

/** The bot to answer now, if it is a bot's turn: the page shows it thinking, so that a
 * search of a second or two reads as work, not as a stuck page. */
export function thinkingBot(view) {
  if (view.phase === "end" || view.answers.length > 0) return null;
  const family = view.waiting_for ?? view.decision?.family;
  const seat = family ? view.seats?.[family] : null;
  return seat && seat !== "person" ? { family, kind: seat } : null;
}

function waitingLine(view) {
  if (view.phase === "end") return "The game is over.";
  const family = view.waiting_for ?? view.decision?.family;
  if (!family) return "Waiting…";
  const kind = view.decision?.kind;
  const who = view.seats?.[family] && view.seats[family] !== "person" ? `${family} (bot: ${view.seats[family]})` : family;
  const doing = DECIDING[kind] ?? (kind ? `must answer (${kind})` : "is to play");
  return `${family === view.seat ? "You" : who} ${family === view.seat ? "must answer" : doing}.`;
}

function answerButton(view, index, ui) {
  const answer = view.answers[index];
  const text = view.answer_texts?.[index] ?? JSON.stringify(answer);
  const position = Number.isInteger(answer) && ["target", "move"].includes(view.decision?.kind) ? answer : null;
  return h("button", {
    type: "button",
    class: "answer",
    testid: "answer",
    text,
    disabled: ui.sending,
    data: { index, answer: JSON.stringify(answer) },
    onclick: () => ui.onAnswer(index, view.step),
    onmouseenter: position !== null ? () => ui.onHover(position) : null,
    onmouseleave: position !== null ? () => ui.onHover(null) : null,
    onfocus: position !== null ? () => ui.onHover(position) : null,
    onblur: position !== null ? () => ui.onHover(null) : null,
  });
}

function placementChoices(view, ui) {
  const cards = [...new Set(view.answers.map((answer) => answer[0]))];
  const hand = new Map([...view.hand, ...view.set_aside].map((card) => [card.id, card]));
  const chosen = cards.includes(ui.selected) ? ui.selected : null;
  return [
    h("p", { class: "hint", text: "Choose a card from your hand, then where it goes." }),
    h(
      "div",
      { class: "answer-row", role: "group", "aria-label": "Cards you may place" },
      cards.map((id) => {
        const card = hand.get(id);
        return h("button", {
          type: "button",
          class: ["place-card", card && familyClass(card.colour)],
          testid: "place-card",
          "aria-pressed": String(id === chosen),
          disabled: ui.sending,
          data: { cardId: id },
          title: card?.key ? view.texts?.[card.key] ?? null : null,
          text: card?.key ? cardName(view, card.key) : `card ${id}`,
          onclick: () => ui.onSelect(id),
        });
      }),
    ),
    chosen === null
      ? null
      : h(
          "div",
          { class: "answer-row", role: "group", "aria-label": "Where it goes" },
          view.answers.map((answer, index) => (answer[0] === chosen ? answerButton(view, index, ui) : null)),
        ),
  ];
}

/**
 * Draws the turn panel. `ui`: {selected, sending, error, note, onAnswer(index, step),
 * onSelect(card id), onHover(position or null)}. The step goes with each answer: the
 * server plays an answer only at the step it was offered at.
 */
export function drawTurn(element, view, ui) {
  const mine = view.answers.length > 0;
  const family = view.waiting_for ?? view.decision?.family ?? null;
  const thinking = thinkingBot(view);
  element.classList.toggle("mine", mine);
  for (const name of [...element.classList]) if (name.startsWith("fam-")) element.classList.remove(name);
  if (family && view.phase !== "end") element.classList.add(familyClass(family));
  fill(
    element,
    h(
      "p",
      { class: "status", testid: "status", "aria-live": "polite" },
      mine ? "Your turn." : waitingLine(view),
      thinking
        ? h(
            "span",
            { class: "thinking", testid: "thinking", data: { family: thinking.family } },
            h("span", { class: "thinking-words", text: " Thinking" }),
            h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
          )
        : null,
    ),
    mine && view.question ? h("h2", { class: "question", testid: "question", text: view.question }) : null,
    mine
      ? h(
          "div",
          { class: "answers", testid: "answers" },
          isPlacement(view)
            ? placementChoices(view, ui)
            : h("div", { class: "answer-row" }, view.answers.map((_, index) => answerButton(view, index, ui))),
        )
      : null,
    ui.note ? h("p", { class: "notice warn", role: "status", testid: "answer-note", text: ui.note }) : null,
    ui.error ? h("p", { class: "error", role: "alert", testid: "answer-error", text: ui.error }) : null,
  );
}
