// The table as one view shows it: the queue, the families, this seat's cards, the log
// and, once the game is over, the scores. Each function draws from the view alone.

import { cardChip, cardElement, cardName, cardText, cardWords } from "./cards.js";
import { fill, h, plural } from "./dom.js";
import { familyClass } from "./families.js";

/** Which positions of the queue to mark, and what a click on a card does. */
export function drawQueue(element, directionElement, view, { onPick, marked = new Set(), spots = new Set() }) {
  const leftward = view.direction === "leftward";
  fill(
    directionElement,
    h("span", { class: "arrow", "aria-hidden": "true", text: leftward ? "←" : "→" }),
    ` The queue resolves ${leftward ? "from right to left" : "from left to right"}; position 1 first.`,
  );
  directionElement.dataset.direction = view.direction;
  element.classList.toggle("leftward", leftward);
  if (!view.queue.length) {
    fill(element, h("p", { class: "empty", text: "The queue is empty." }));
    return;
  }
  fill(
    element,
    view.queue.map((stack, index) => {
      const top = stack[stack.length - 1];
      const under = stack.slice(0, -1).reverse();
      const acting = view.acting !== null && stack.some((card) => card.id === view.acting);
      return h(
        "div",
        {
          class: ["stack", acting && "acting", marked.has(index) && "marked", spots.has(index) && "spot"],
          testid: "stack",
          data: { position: index },
        },
        h(
          "div",
          { class: "position" },
          h("span", { class: "number", text: String(index + 1) }),
          acting ? h("span", { class: "badge acting-badge", text: "acting" }) : null,
        ),
        cardElement(top, view, { onPick, extra: top.id === view.acting ? ["acting-card"] : [] }),
        under.length
          ? h(
              "ul",
              { class: "under", "aria-label": "covered cards, from the top down" },
              under.map((card) => h("li", {}, cardChip(card, view, onPick))),
            )
          : null,
      );
    }),
  );
}

/** This seat's hand and set-aside cards (nothing for a spectator). */
export function drawMine(element, view, { onPick, selectable = new Set(), selected = null }) {
  if (view.seat === null) {
    fill(element, h("p", { class: "hint", text: "You are watching: nobody's hand is shown." }));
    return;
  }
  const row = (cards, testid, empty) =>
    h(
      "div",
      { class: "hand-row", testid },
      cards.length
        ? cards.map((card) =>
            cardElement(card, view, {
              onPick,
              extra: [selectable.has(card.id) && "selectable", selected === card.id && "selected"],
            }),
          )
        : h("p", { class: "empty", text: empty }),
    );
  fill(
    element,
    h("h2", {}, "Your hand ", h("span", { class: "muted", text: `(${plural(view.hand.length, "card")})` })),
    row(view.hand, "hand", "No cards in hand."),
    h("h3", {}, "Set aside ", h("span", { class: "muted", text: `(${view.set_aside.length})` })),
    row(view.set_aside, "set-aside", "None."),
  );
}

function pile(title, cards, view, onPick, testid) {
  return h(
    "div",
    { class: "pile", testid },
    h("span", { class: "pile-name", text: `${title} (${cards.length})` }),
    cards.length ? h("span", { class: "chips" }, cards.map((card) => cardChip(card, view, onPick))) : null,
  );
}

/** Everyone's Influence, hand sizes, piles, seat and turn. */
export function drawFamilies(element, view, onPick) {
  const asked = view.phase === "end" ? null : view.decision?.family ?? view.waiting_for ?? null;
  fill(
    element,
    view.families.map((family) => {
      const seatKind = view.seats?.[family];
      return h(
        "section",
        {
          class: ["family", familyClass(family), family === asked && "to-play", family === view.seat && "me"],
          testid: `family-${family}`,
          "aria-label": `${family}${family === view.seat ? " (you)" : ""}`,
        },
        h(
          "header",
          {},
          h("span", { class: "swatch", "aria-hidden": "true" }),
          h("strong", { class: "family-name", text: family }),
          family === view.seat ? h("span", { class: "badge", text: "you" }) : null,
          seatKind ? h("span", { class: "muted", text: seatKind === "person" ? "person" : `bot: ${seatKind}` }) : null,
          family === view.first_player ? h("span", { class: "badge first", text: "first player" }) : null,
          family === asked ? h("span", { class: "badge turn-badge", text: "to play" }) : null,
        ),
        h(
          "div",
          { class: "influence" },
          h("span", { class: "value", testid: `influence-${family}`, text: String(view.influence[family]) }),
          h("span", { class: "label", text: "Influence" }),
        ),
        h(
          "p",
          { class: "sizes" },
          h("span", { testid: `hand-size-${family}`, text: `Hand ${view.hand_sizes[family]}` }),
          " · ",
          h("span", { text: `Set aside ${view.set_aside_sizes[family]}` }),
        ),
        pile("Reserve", view.reserve[family] ?? [], view, onPick, `reserve-${family}`),
        pile("Discarded", view.discarded[family] ?? [], view, onPick, `discarded-${family}`),
        pile("Eliminated", view.eliminated[family] ?? [], view, onPick, `eliminated-${family}`),
      );
    }),
  );
}

/** The readable log, oldest first; it stays scrolled to the end as lines arrive. */
export function drawLog(element, view) {
  const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
  const lines = view.log ?? [];
  fill(
    element,
    lines.map((line) => h("li", { class: line.startsWith(" ") ? "detail" : null, text: line.trim() })),
  );
  if (atEnd || element.dataset.lines !== String(lines.length)) element.scrollTop = element.scrollHeight;
  element.dataset.lines = String(lines.length);
}

/** The final scores and winners. */
export function drawScores(element, view) {
  const winners = view.winners ?? [];
  const ranked = Object.entries(view.scores ?? {}).sort((a, b) => b[1] - a[1]);
  let headline;
  if (view.seat !== null && winners.includes(view.seat)) {
    headline = winners.length > 1 ? "You share the win!" : "You win!";
  } else if (winners.length > 1) {
    headline = `${winners.join(" and ")} share the win.`;
  } else {
    headline = `${winners[0] ?? "Nobody"} wins.`;
  }
  fill(
    element,
    h("h2", { testid: "winners", text: headline }),
    h(
      "table",
      { class: "scores", testid: "scores" },
      h("caption", { text: "Final Influence" }),
      h("tbody", {}, ranked.map(([family, score]) =>
        h(
          "tr",
          { class: [familyClass(family), winners.includes(family) && "winner"], testid: `score-${family}` },
          h("th", { scope: "row" }, h("span", { class: "swatch", "aria-hidden": "true" }), family),
          h("td", { text: String(score) }),
          h("td", { text: winners.includes(family) ? "winner" : "" }),
        ),
      )),
    ),
  );
}

/** A card's name and full text, shown when a card is clicked. */
export function drawCardInfo(element, view, card) {
  if (!card) {
    fill(element, h("p", { class: "hint", text: "Click a card to read it." }));
    return;
  }
  fill(
    element,
    h("h2", { class: familyClass(card.colour) }, h("span", { class: "swatch", "aria-hidden": "true" }), cardWords(view, card)),
    h("p", { class: "card-text", text: cardText(view, card.key) || `${cardName(view, card.key)} has no text.` }),
  );
}
