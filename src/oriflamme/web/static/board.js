// The table as one view shows it: the queue, the families, this seat's cards, the log
// and, once the game is over, the scores. Each function draws from the view alone.

import { cardChip, cardElement, cardName, cardText, cardWords } from "./cards.js";
import { fill, h } from "./dom.js";
import { familyClass } from "./families.js";
import { botName, familyName, sentence, t } from "./words.js";

/** Which positions of the queue to mark, and what a click on a card does. */
export function drawQueue(element, directionElement, view, { onPick, marked = new Set(), spots = new Set() }) {
  const leftward = view.direction === "leftward";
  fill(
    directionElement,
    h("span", { class: "arrow", "aria-hidden": "true", text: leftward ? "←" : "→" }),
    t("queue.direction", { leftward }),
  );
  directionElement.dataset.direction = view.direction;
  element.classList.toggle("leftward", leftward);
  if (!view.queue.length) {
    fill(element, h("p", { class: "empty", text: t("queue.empty") }));
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
          acting ? h("span", { class: "badge acting-badge", text: t("queue.acting") }) : null,
        ),
        cardElement(top, view, { onPick, extra: top.id === view.acting ? ["acting-card"] : [] }),
        under.length
          ? h(
              "ul",
              { class: "under", "aria-label": t("queue.under") },
              h("li", { class: "covers", "aria-hidden": "true", text: t("queue.covers") }),
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
    fill(element, h("p", { class: "hint", text: t("mine.watching") }));
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
    h("h2", {}, `${t("mine.hand")} `, h("span", { class: "muted", text: t("mine.cards", { count: view.hand.length }) })),
    row(view.hand, "hand", t("mine.noHand")),
    view.set_aside.length
      ? h("h3", {}, `${t("mine.setAside")} `, h("span", { class: "muted", text: `(${view.set_aside.length})` }))
      : null,
    view.set_aside.length ? row(view.set_aside, "set-aside", t("mine.none")) : null,
  );
}

function pile(title, cards, view, onPick, testid) {
  if (!cards.length) return null;
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
          "aria-label": family === view.seat ? t("family.youLabel", { family: familyName(family) }) : familyName(family),
        },
        h(
          "header",
          {},
          h("span", { class: "swatch", "aria-hidden": "true" }),
          h("strong", { class: "family-name", text: familyName(family) }),
          family === view.seat ? h("span", { class: "badge", text: t("family.you") }) : null,
          seatKind
            ? h("span", { class: "muted", text: seatKind === "person" ? t("family.person") : t("family.bot", { kind: botName(seatKind) }) })
            : null,
          family === view.first_player ? h("span", { class: "badge first", text: t("family.first") }) : null,
          family === asked ? h("span", { class: "badge turn-badge", text: t("family.toPlay") }) : null,
        ),
        h(
          "div",
          { class: "influence" },
          h("span", { class: "value", testid: `influence-${family}`, text: String(view.influence[family]) }),
          h("span", { class: "label", text: t("family.influence") }),
        ),
        h(
          "p",
          { class: "sizes" },
          h("span", { testid: `hand-size-${family}`, text: t("family.hand", { count: view.hand_sizes[family] }) }),
          " · ",
          h("span", { text: t("family.setAside", { count: view.set_aside_sizes[family] }) }),
        ),
        pile(t("pile.reserve"), view.reserve[family] ?? [], view, onPick, `reserve-${family}`),
        pile(t("pile.discarded"), view.discarded[family] ?? [], view, onPick, `discarded-${family}`),
        pile(t("pile.eliminated"), view.eliminated[family] ?? [], view, onPick, `eliminated-${family}`),
      );
    }),
  );
}

/** Everyone's Influence in one line (the header's bar, always in reach), the family
 * to play marked. */
export function drawInfluenceBar(element, view) {
  const asked = view.phase === "end" ? null : view.decision?.family ?? view.waiting_for ?? null;
  fill(
    element,
    view.families.map((family) =>
      h(
        "li",
        {
          class: ["influence-item", familyClass(family), family === asked && "to-play", family === view.seat && "me"],
          testid: `bar-${family}`,
          title: `${familyName(family)}: ${t("family.influence")} ${view.influence[family]}`,
        },
        h("span", { class: "swatch", "aria-hidden": "true" }),
        h("span", { class: "bar-name", text: familyName(family) }),
        h("strong", { class: "bar-value", testid: `bar-influence-${family}`, text: String(view.influence[family]) }),
        family === asked ? h("span", { class: "bar-turn", "aria-label": t("family.toPlay"), text: "◀" }) : null,
      ),
    ),
  );
}

/** The readable log, oldest first, the lines from `fresh` on (the newest move) marked;
 * it stays scrolled to the end as lines arrive: returns whether to scroll it there
 * (see followLog). */
export function drawLog(element, view, fresh = Infinity) {
  const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
  const lines = view.log ?? [];
  fill(
    element,
    lines.map((line, index) =>
      h("li", { class: [line.startsWith(" ") && "detail", index >= fresh && "fresh"], text: line.trim() }),
    ),
  );
  const follow = atEnd || element.dataset.lines !== String(lines.length);
  element.dataset.lines = String(lines.length);
  return follow;
}

/** Scrolls the log to its newest line (once it is on the screen: a hidden one has no
 * height to scroll). */
export function followLog(element) {
  element.scrollTop = element.scrollHeight;
}

/** The final scores and winners. */
export function drawScores(element, view) {
  const winners = view.winners ?? [];
  const ranked = Object.entries(view.scores ?? {}).sort((a, b) => b[1] - a[1]);
  let headline;
  if (view.seat !== null && winners.includes(view.seat)) {
    headline = winners.length > 1 ? t("scores.youShare") : t("scores.youWin");
  } else if (winners.length > 1) {
    headline = sentence(t("scores.share", { families: winners.map(familyName).join(t("scores.and")) }));
  } else {
    headline = sentence(t("scores.wins", { family: winners.length ? familyName(winners[0]) : t("scores.nobody") }));
  }
  fill(
    element,
    h("h2", { testid: "winners", text: headline }),
    h(
      "table",
      { class: "scores", testid: "scores" },
      h("caption", { text: t("scores.final") }),
      h("tbody", {}, ranked.map(([family, score]) =>
        h(
          "tr",
          { class: [familyClass(family), winners.includes(family) && "winner"], testid: `score-${family}` },
          h("th", { scope: "row" }, h("span", { class: "swatch", "aria-hidden": "true" }), familyName(family)),
          h("td", { text: String(score) }),
          h("td", { text: winners.includes(family) ? t("scores.winner") : "" }),
        ),
      )),
    ),
  );
}

/** A card's name and full text, shown beside a card when it is tapped; `onClose` hides it. */
export function drawCardInfo(element, view, card, onClose) {
  element.hidden = !card;
  if (!card) return;
  fill(
    element,
    h(
      "div",
      { class: "card-info-head" },
      h("h2", { class: familyClass(card.colour) }, h("span", { class: "swatch", "aria-hidden": "true" }), cardWords(view, card)),
      h("button", { type: "button", class: "small close", testid: "card-info-close", "aria-label": t("game.close"), text: "×", onclick: onClose }),
    ),
    h("p", {
      class: "card-text",
      testid: "card-text",
      text: card.key === null ? "" : cardText(view, card.key) || t("info.noText", { name: cardName(view, card.key) }),
    }),
  );
}
