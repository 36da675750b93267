// Whose turn it is, what they must decide and, when it is this seat's turn, the legal
// answers as buttons: exactly the view's `answers`, nothing else. A placement may be
// chosen in two steps (the card, then where), which reaches every legal answer.

import { cardName } from "./cards.js";
import { fill, h } from "./dom.js";
import { familyClass } from "./families.js";
import { botName, familyName, sentence, t } from "./words.js";

const DECIDING = new Set(["place", "reveal", "target", "move", "twin", "choose"]);

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
  if (view.phase === "end") return t("turn.over");
  const family = view.waiting_for ?? view.decision?.family;
  if (!family) return t("turn.waiting");
  if (family === view.seat) return t("turn.youMust");
  const kind = view.decision?.kind;
  const name = familyName(family);
  const seat = view.seats?.[family];
  const who = seat && seat !== "person" ? t("turn.botWho", { family: name, kind: botName(seat) }) : name;
  const doing = DECIDING.has(kind) ? t(`turn.${kind}`) : kind ? t("turn.other", { kind }) : t("turn.toPlay");
  return sentence(t("turn.someone", { who, doing }));
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
    disabled: ui.sending || ui.offline,
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
    h("p", { class: "hint", text: t("turn.chooseCard") }),
    h(
      "div",
      { class: "answer-row", role: "group", "aria-label": t("turn.cards") },
      cards.map((id) => {
        const card = hand.get(id);
        return h("button", {
          type: "button",
          class: ["place-card", card && familyClass(card.colour)],
          testid: "place-card",
          "aria-pressed": String(id === chosen),
          disabled: ui.sending || ui.offline,
          data: { cardId: id },
          title: card?.key ? view.texts?.[card.key] ?? null : null,
          text: card?.key ? cardName(view, card.key) : t("turn.card", { id }),
          onclick: () => ui.onSelect(id),
        });
      }),
    ),
    chosen === null
      ? null
      : h(
          "div",
          { class: "answer-row", role: "group", "aria-label": t("turn.where") },
          view.answers.map((answer, index) => (answer[0] === chosen ? answerButton(view, index, ui) : null)),
        ),
  ];
}

/**
 * Draws the turn panel. `ui`: {selected, sending, offline, error, note, lastMove,
 * onAnswer(index, step), onSelect(card id), onHover(position or null)}. While
 * `offline` (the connection is lost) the answers are greyed out and cannot be sent. The step goes with each answer: the
 * server plays an answer only at the step it was offered at.
 */
export function drawTurn(element, view, ui) {
  const mine = view.answers.length > 0;
  const family = view.waiting_for ?? view.decision?.family ?? null;
  const thinking = thinkingBot(view);
  element.classList.toggle("mine", mine);
  element.classList.toggle("offline", Boolean(ui.offline));
  for (const name of [...element.classList]) if (name.startsWith("fam-")) element.classList.remove(name);
  if (family && view.phase !== "end") element.classList.add(familyClass(family));
  fill(
    element,
    h(
      "p",
      { class: "status", testid: "status", "aria-live": "polite" },
      mine ? t("turn.yours") : waitingLine(view),
      thinking
        ? h(
            "span",
            { class: "thinking", testid: "thinking", data: { family: thinking.family } },
            h("span", { class: "thinking-words", text: t("turn.thinking") }),
            h("span", { class: "thinking-dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
          )
        : null,
    ),
    ui.lastMove
      ? h(
          "p",
          { class: "last-move-line", testid: "last-move" },
          h("span", { class: "muted", text: `${t("game.lastMove")} ` }),
          ui.lastMove,
        )
      : null,
    ui.offline ? h("p", { class: "notice warn offline-note", role: "status", testid: "offline-note", text: t("game.offline") }) : null,
    mine && view.question ? h("h2", { class: "question", testid: "question", text: view.question }) : null,
    mine
      ? h(
          "div",
          { class: "answers", testid: "answers", "aria-disabled": ui.offline ? "true" : null },
          isPlacement(view)
            ? placementChoices(view, ui)
            : h("div", { class: "answer-row" }, view.answers.map((_, index) => answerButton(view, index, ui))),
        )
      : null,
    ui.note ? h("p", { class: "notice warn", role: "status", testid: "answer-note", text: ui.note }) : null,
    ui.error ? h("p", { class: "error", role: "alert", testid: "answer-error", text: ui.error }) : null,
  );
}
