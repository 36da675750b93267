// A secret link shown to be sent on: its words, the link itself (read-only, so it can be
// selected whole on a phone), a Copy button and a button opening it in a new tab.

import { h } from "./dom.js";
import { familyClass } from "./families.js";
import { t } from "./words.js";

const SHOWN_MS = 2500;

/**
 * Puts `input`'s text on the clipboard. Where the browser offers no clipboard (a page
 * served over plain http to another machine is not given one) or refuses, the text is
 * copied from the selection, or at least left selected for the person to copy.
 * Returns whether it was copied.
 */
export async function copyFrom(input) {
  input.focus();
  input.select();
  input.setSelectionRange(0, input.value.length); // iOS selects only with this
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(input.value);
      return true;
    } catch {
      input.focus();
      input.select();
    }
  }
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

function copyButton(input, testid) {
  const button = h("button", { type: "button", class: "small copy", testid, text: t("link.copy") });
  let timer = null;
  button.addEventListener("click", async () => {
    const copied = await copyFrom(input);
    button.textContent = copied ? t("link.copied") : t("link.selected");
    button.dataset.copied = String(copied);
    clearTimeout(timer);
    timer = setTimeout(() => {
      button.textContent = t("link.copy");
      delete button.dataset.copied;
    }, SHOWN_MS);
  });
  return button;
}

/**
 * One link's row. `family` colours it (null: no family); `testid` names the input, and
 * its Copy and Open buttons are `${testid}-copy` and `${testid}-open`; `note` follows the
 * label; `open` is the open button's words.
 */
export function linkRow({ label, family = null, url, testid, note = "", open = t("link.open") }) {
  const input = h("input", {
    type: "text",
    readonly: true,
    value: url,
    testid,
    spellcheck: "false",
    "aria-label": t("link.of", { label }),
  });
  return h(
    "div",
    { class: ["link-row", family && familyClass(family)], data: { family: family ?? "" } },
    h(
      "span",
      { class: "seat-name" },
      family ? h("span", { class: "swatch", "aria-hidden": "true" }) : null,
      h("span", { class: family ? "family-word" : "link-label", text: label }),
      note ? h("span", { class: "muted", text: ` ${note}` }) : null,
    ),
    input,
    copyButton(input, `${testid}-copy`),
    h("a", { href: url, class: "button small", target: "_blank", rel: "noopener", testid: `${testid}-open`, text: open }),
  );
}
