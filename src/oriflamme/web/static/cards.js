// A card as the page shows it: a known card (its name, its family's band, its text on
// hover or click) or a face-down card nobody told this seat about, shown as a back in
// its family's colour. A hidden card has key null: nothing else is known of it.

import { h } from "./dom.js";
import { familyClass } from "./families.js";
import { familyName, t } from "./words.js";

/** The card's name, from the view's `names`, or its key if the view has no name. */
export function cardName(view, key) {
  return (view.names && view.names[key]) || key;
}

/** The card's text from the view's `texts`, or "". */
export function cardText(view, key) {
  return (view.texts && view.texts[key]) || "";
}

/** Words for a card a person may read: "blue Soldier" or "blue's face-down card". */
export function cardWords(view, card) {
  const family = familyName(card.colour);
  return card.key === null ? t("card.faceDown", { family }) : t("card.of", { family, name: cardName(view, card.key) });
}

function badges(card, view) {
  const found = [];
  if (card.tokens) {
    const tokens = t("card.tokens", { count: card.tokens });
    found.push(h("span", { class: "badge tokens", testid: "tokens", title: tokens, "aria-label": tokens, text: `● ${card.tokens}` }));
  }
  const briber = view.bribes?.[card.id] ?? (card.owner && card.owner !== card.colour ? card.owner : null);
  if (briber) {
    found.push(
      h("span", { class: ["badge bribe", familyClass(briber)], testid: "bribe", text: t("card.bribed", { family: familyName(briber) }) }),
    );
  }
  return found;
}

/**
 * The element for `card` ({id, colour, key, and in the queue owner, up, tokens}).
 * `onPick(card)` runs when a known card is clicked; `extra` adds classes.
 */
export function cardElement(card, view, { onPick = null, extra = [] } = {}) {
  const classes = ["card", familyClass(card.colour), ...extra];
  if (card.key === null) {
    return h(
      "div",
      {
        class: [...classes, "back"],
        testid: "card-back",
        role: "img",
        "aria-label": `${cardWords(view, card)}${card.tokens ? `, ${t("card.tokens", { count: card.tokens })}` : ""}`,
        data: { cardId: card.id, colour: card.colour },
      },
      h("span", { class: "back-mark", "aria-hidden": "true", text: "⚜" }),
      h("span", { class: "card-family", text: familyName(card.colour) }),
      h("span", { class: "badges" }, badges(card, view)),
    );
  }
  const down = card.up === false;
  const text = cardText(view, card.key);
  return h(
    "button",
    {
      type: "button",
      class: [...classes, "face", down && "down"],
      testid: "card",
      title: text || null,
      "aria-label": `${cardWords(view, card)}${down ? `, ${t("card.down")}` : ""}`,
      data: { cardId: card.id, key: card.key, colour: card.colour },
      onclick: onPick ? (event) => onPick(card, event.currentTarget) : null,
    },
    h("span", { class: "card-family", text: familyName(card.colour) }),
    h("span", { class: "card-name", testid: "card-name", text: cardName(view, card.key) }),
    h("span", { class: "card-body", "aria-hidden": "true", text }),
    h("span", { class: "badges" }, down ? h("span", { class: "badge down-badge", text: t("card.down") }) : null, badges(card, view)),
  );
}

/** A small chip naming a card in a pile or a list. */
export function cardChip(card, view, onPick) {
  if (card.key === null) {
    return h("span", {
      class: ["chip", "back", familyClass(card.colour)],
      testid: "chip-back",
      data: { cardId: card.id },
      text: t("card.downChip"),
    });
  }
  return h("button", {
    type: "button",
    class: ["chip", familyClass(card.colour)],
    testid: "chip",
    title: cardText(view, card.key) || null,
    data: { cardId: card.id, key: card.key },
    text: cardName(view, card.key),
    onclick: onPick ? (event) => onPick(card, event.currentTarget) : null,
  });
}
