// The table page: every seat's link and the spectators', for the person who set the
// table. Its token (the creator's) comes from the URL fragment (#token=...), which the
// browser never sends; it goes to the server only in the Authorization header.

import { ApiError, fragmentToken, getJSON } from "./api.js";
import { byId, fill, h } from "./dom.js";
import { familyClass } from "./families.js";
import { linkRow } from "./links.js";
import { findGame, rememberGame } from "./mygames.js";
import { botName, familyName, languageSelector, t, translatePage } from "./words.js";

const parts = location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(parts[parts.length - 1] ?? "");
const token = fragmentToken();
// While the page is open, how often it reads again whether the game is over.
const REFRESH_MS = 30000;

let shownOnce = false;

function fatal(message) {
  byId("table-loading").hidden = true;
  byId("table-panel").hidden = true;
  const box = byId("page-error");
  fill(box, message, " ", h("a", { href: "/", text: t("table.lobby") }));
  box.hidden = false;
}

function refused(error) {
  if (error.status === 403) return t("table.notThis");
  if (error.status === 404) return t("game.gone");
  return t("table.unreadable", { message: error.message });
}

function botRow(family, kind) {
  return h(
    "div",
    { class: ["link-row", "bot-row", familyClass(family)], testid: `bot-${family}`, data: { family } },
    h(
      "span",
      { class: "seat-name" },
      h("span", { class: "swatch", "aria-hidden": "true" }),
      h("span", { class: "family-word", text: familyName(family) }),
    ),
    h("span", { class: "bot-kind", text: t("table.botRow", { kind: botName(kind) }) }),
  );
}

function status(table) {
  if (table.over) return t("table.over");
  if (table.step === 0) return t("table.notYet");
  return t("table.playing", { count: table.step });
}

function draw(table) {
  const mine = findGame(table.id)?.mine ?? null;
  const families = Object.entries(table.players);
  fill(
    byId("seat-links"),
    families.map(([family, kind]) =>
      kind === "person" && table.links[family]
        ? linkRow({
            label: familyName(family),
            family,
            url: table.links[family],
            testid: `link-${family}`,
            note: family === mine ? t("lobby.you") : "",
            open: t("table.openSeat"),
          })
        : botRow(family, kind),
    ),
  );
  fill(byId("spectate"), linkRow({ label: t("lobby.spectators"), url: table.spectate, testid: "spectate-link", open: t("lobby.watch") }));
  const line = byId("table-status");
  line.textContent = status(table);
  line.dataset.over = String(table.over);
  document.title = table.over ? t("table.titleOver") : t("table.title");
  document.body.dataset.step = String(table.step);
  // Opened from another browser, it joins this one's "Your games" too.
  rememberGame({
    id: table.id,
    when: new Date().toISOString(),
    families: table.players,
    table: table.table,
    mine,
  });
}

async function read() {
  let table;
  try {
    table = await getJSON(`/api/games/${encodeURIComponent(gameId)}/table`, token);
  } catch (error) {
    // Once shown, a passing failure (the connection, a restart) keeps the links up.
    if (!shownOnce || (error instanceof ApiError && [403, 404].includes(error.status))) {
      fatal(error instanceof ApiError ? refused(error) : String(error));
    }
    return false;
  }
  if (!shownOnce) {
    byId("table-loading").hidden = true;
    byId("table-panel").hidden = false;
    shownOnce = true;
    draw(table);
  } else {
    // The links never change: only the status is drawn again, so a selection or a
    // "Copied" stays where it is.
    const line = byId("table-status");
    line.textContent = status(table);
    line.dataset.over = String(table.over);
    document.body.dataset.step = String(table.step);
  }
  document.body.dataset.ready = "true";
  return !table.over;
}

async function start() {
  translatePage();
  byId("language-box").append(languageSelector());
  if (!token) {
    fatal(t("table.noToken"));
    return;
  }
  if (!(await read())) return;
  const timer = setInterval(async () => {
    if (document.visibilityState === "visible" && !(await read())) clearInterval(timer);
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") read();
  });
}

start();
