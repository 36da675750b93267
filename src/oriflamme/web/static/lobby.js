// The lobby: reads what is installed, creates a game through POST /api/games, shows
// its links, and lists the games set from this browser ("Your games").

import { ApiError, getJSON, postJSON } from "./api.js";
import { byId, fill, h } from "./dom.js";
import { familyClass } from "./families.js";
import { pluginOrigin, showInstalled } from "./installed.js";
import { linkRow } from "./links.js";
import { forgetGame, loadGames, rememberGame, tableToken } from "./mygames.js";
import {
  botName,
  familyName,
  known,
  lang,
  languageSelector,
  readable,
  t,
  titled,
  translatePage,
  valueName,
  variantName,
} from "./words.js";

const PERSON = "person";
const ABSENT = "";
const WATCH = "";

let installed = null;
const state = {
  seats: {}, // family -> PERSON, a bot level or kind, or ABSENT
  mine: null, // the family this person plays, or WATCH
  mode: "set",
  set: null,
  mix: new Set(),
  size: "10",
  cards: new Set(),
  variants: {}, // variant name -> index into its values
  without: new Set(),
  firstPlayer: "",
};

function playing() {
  return installed.families.filter((family) => state.seats[family] !== ABSENT);
}

function pluginIn(name) {
  return !state.without.has(name);
}

function availableSets() {
  return installed.sets.filter((set) => pluginIn(set.plugin));
}

/** Whether `set` comes with the game (a built-in plugin's), not a house rule. */
function builtIn(set) {
  return installed.plugins.some((plugin) => plugin.name === set.plugin && plugin.builtin);
}

/** A set's title for people (a set with no title: its name made readable). */
function setTitle(set) {
  return titled(set.title || set.name);
}

/** A card's name in this page's language, where the server gives it. */
function cardTitle(card) {
  return card.names?.[lang] ?? card.name;
}

function availableVariants() {
  return installed.variants.filter((variant) => pluginIn(variant.plugin));
}

// Seats.

function seatRow(family) {
  const kind = state.seats[family];
  const select = h(
    "select",
    {
      id: `seat-${family}`,
      testid: `seat-${family}`,
      onchange: (event) => {
        state.seats[family] = event.target.value;
        if (state.mine === family && event.target.value !== PERSON) state.mine = WATCH;
        if (state.mine === WATCH && event.target.value === PERSON && !mineIsSet()) state.mine = family;
        renderSeats();
      },
    },
    h("option", { value: ABSENT, text: t("lobby.notPlaying"), selected: kind === ABSENT }),
    h("option", { value: PERSON, text: t("lobby.person"), selected: kind === PERSON }),
    // The levels first, for players; the kinds themselves for those who want them.
    installed.levels.length
      ? h("optgroup", { label: t("lobby.levels") }, installed.levels.map((level) => botOption(level.name, kind)))
      : null,
    h("optgroup", { label: t("lobby.otherBots") }, installed.bots.map((bot) => botOption(bot, kind))),
  );
  const level = installed.levels.find((each) => each.name === kind);
  const radio = h("input", {
    type: "radio",
    name: "mine",
    value: family,
    testid: `mine-${family}`,
    checked: state.mine === family,
    disabled: kind !== PERSON,
    onchange: () => {
      state.mine = family;
      renderSeats();
    },
  });
  return h(
    "div",
    { class: ["seat", familyClass(family), kind === ABSENT && "absent"] },
    h(
      "label",
      { for: `seat-${family}`, class: "seat-name" },
      h("span", { class: "swatch", "aria-hidden": "true" }),
      h("span", { class: "family-word", text: familyName(family) }),
    ),
    select,
    h("label", { class: "mine" }, radio, t("lobby.mySeat")),
    level ? h("span", { class: "muted level-help", testid: `level-help-${family}`, text: levelHelp(level) }) : null,
  );
}

function botOption(bot, kind) {
  return h("option", { value: bot, text: t("lobby.bot", { kind: botName(bot) }), selected: kind === bot });
}

/** What a level is, in this page's language (a level the page has no words for: the server's). */
function levelHelp(level) {
  return known(`level.${level.name}`) ? t(`level.${level.name}`) : level.help;
}

function mineIsSet() {
  return state.mine !== WATCH && state.seats[state.mine] === PERSON;
}

function renderSeats() {
  const watch = h("input", {
    type: "radio",
    name: "mine",
    value: WATCH,
    testid: "mine-watch",
    checked: !mineIsSet(),
    onchange: () => {
      state.mine = WATCH;
      renderSeats();
    },
  });
  fill(byId("seats"), installed.families.map(seatRow), h("label", { class: "watch" }, watch, t("lobby.onlyWatch")));
  const count = playing().length;
  const { min_families: least, max_families: most } = installed;
  const people = playing().filter((f) => state.seats[f] === PERSON).length;
  byId("seat-count").textContent =
    t("lobby.count", { families: count, people }) + (count < least || count > most ? t("lobby.needs", { least, most }) : ".");
  renderFirstPlayer();
}

function renderFirstPlayer() {
  const select = byId("first-player");
  if (!playing().includes(state.firstPlayer)) state.firstPlayer = "";
  fill(
    select,
    h("option", { value: "", text: t("lobby.drawn"), selected: state.firstPlayer === "" }),
    playing().map((f) => h("option", { value: f, text: familyName(f), selected: state.firstPlayer === f })),
  );
}

// Cards.

function cardsChoice() {
  const sets = availableSets();
  if (state.mode === "set") {
    if (!sets.some((set) => set.name === state.set)) state.set = sets[0]?.name ?? null;
    return h(
      "div",
      { class: "field-row" },
      h("label", { for: "set", text: t("lobby.set") }),
      h(
        "select",
        { id: "set", testid: "set", onchange: (event) => (state.set = event.target.value) },
        sets.map((set) =>
          h("option", {
            value: set.name,
            text: t("lobby.setCards", { title: setTitle(set), count: set.cards.length }),
            selected: set.name === state.set,
          }),
        ),
      ),
    );
  }
  if (state.mode === "mix") {
    return [
      h(
        "fieldset",
        { class: "checks" },
        h("legend", { text: t("lobby.drawFrom") }),
        sets.map((set) =>
          h(
            "label",
            {},
            h("input", {
              type: "checkbox",
              testid: `mix-${set.name}`,
              checked: state.mix.has(set.name),
              onchange: (event) => toggle(state.mix, set.name, event.target.checked),
            }),
            ` ${setTitle(set)}`,
            builtIn(set) ? null : h("span", { class: "badge", text: t("lobby.houseRule") }),
          ),
        ),
      ),
      h(
        "div",
        { class: "field-row" },
        h("label", { for: "size", text: t("lobby.size") }),
        h("input", {
          id: "size",
          testid: "size",
          type: "number",
          min: 1,
          max: 100,
          value: state.size,
          oninput: (event) => (state.size = event.target.value),
        }),
      ),
    ];
  }
  return sets.map((set) =>
    h(
      "fieldset",
      { class: "checks card-checks" },
      h("legend", { text: setTitle(set) }),
      set.cards.map((card) =>
        h(
          "label",
          { title: card.texts?.[lang] ?? card.text },
          h("input", {
            type: "checkbox",
            testid: `card-${card.key}`,
            checked: state.cards.has(card.key),
            onchange: (event) => toggle(state.cards, card.key, event.target.checked),
          }),
          ` ${cardTitle(card)}`,
        ),
      ),
    ),
  );
}

function toggle(set, value, on) {
  if (on) set.add(value);
  else set.delete(value);
}

function renderCards() {
  fill(byId("cards-choice"), cardsChoice());
}

// Variants and plugins.

function variantRow(variant) {
  const id = `variant-${variant.name}`;
  if (state.variants[variant.name] === undefined) {
    const index = variant.values.findIndex((v) => JSON.stringify(v) === JSON.stringify(variant.default));
    state.variants[variant.name] = Math.max(index, 0);
  }
  return h(
    "div",
    { class: "variant" },
    h(
      "label",
      { for: id },
      h("strong", { text: variantName(variant.name) }),
      " ",
      builtIn({ plugin: variant.plugin }) ? null : h("span", { class: "badge", text: t("lobby.houseRule") }),
    ),
    h(
      "select",
      { id, testid: id, onchange: (event) => (state.variants[variant.name] = Number(event.target.value)) },
      variant.values.map((value, index) =>
        h("option", {
          value: index,
          text: valueName(value) + (JSON.stringify(value) === JSON.stringify(variant.default) ? t("lobby.default") : ""),
          selected: index === state.variants[variant.name],
        }),
      ),
    ),
    h("p", {
      class: "hint",
      text: known(`variant.${variant.name}.help`) ? t(`variant.${variant.name}.help`) : variant.help,
    }),
  );
}

function renderVariants() {
  const variants = availableVariants();
  fill(
    byId("variants"),
    variants.length ? variants.map(variantRow) : h("p", { class: "hint", text: t("lobby.noVariant") }),
  );
}

function renderPlugins() {
  fill(
    byId("plugin-choice"),
    installed.plugins.map((plugin) => {
      const fixed = plugin.builtin || Boolean(plugin.problem);
      return h(
        "label",
        { class: ["plugin-toggle", fixed && "fixed"] },
        h("input", {
          type: "checkbox",
          testid: `plugin-${plugin.name}`,
          checked: !plugin.problem && pluginIn(plugin.name),
          disabled: fixed,
          onchange: (event) => {
            toggle(state.without, plugin.name, !event.target.checked);
            renderCards();
            renderVariants();
          },
        }),
        " ",
        h("strong", { text: readable(plugin.name) }),
        " ",
        h("span", {
          class: "muted",
          text: plugin.problem ? t("lobby.notLoaded", { problem: plugin.problem }) : `(${pluginOrigin(plugin)})`,
        }),
      );
    }),
  );
}

// Creating.

function request() {
  const families = playing();
  const body = { families, variants: {}, without: [...state.without], bots: {} };
  for (const family of families) {
    if (state.seats[family] !== PERSON) body.bots[family] = state.seats[family];
  }
  const sets = availableSets();
  if (state.mode === "set") {
    if (!state.set) throw new Error(t("lobby.chooseSet"));
    body.sets = [state.set];
  } else if (state.mode === "mix") {
    const chosen = sets.filter((set) => state.mix.has(set.name)).map((set) => set.name);
    if (!chosen.length) throw new Error(t("lobby.chooseMix"));
    const size = Number(state.size);
    if (!Number.isInteger(size) || size < 1) throw new Error(t("lobby.badSize"));
    body.sets = chosen;
    body.size = size;
  } else {
    const keys = sets.flatMap((set) => set.cards.map((card) => card.key)).filter((key) => state.cards.has(key));
    if (!keys.length) throw new Error(t("lobby.chooseCard"));
    body.cards = keys;
    body.sets = sets.filter((set) => set.cards.some((card) => state.cards.has(card.key))).map((set) => set.name);
  }
  for (const variant of availableVariants()) {
    body.variants[variant.name] = variant.values[state.variants[variant.name]];
  }
  const seed = byId("seed").value.trim();
  if (seed !== "") {
    if (!/^-?\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
      throw new Error(t("lobby.badSeed", { most: Number.MAX_SAFE_INTEGER }));
    }
    body.seed = Number(seed);
  }
  if (state.firstPlayer) body.first_player = state.firstPlayer;
  return body;
}

function showError(message) {
  const box = byId("lobby-error");
  box.textContent = message;
  box.hidden = !message;
}

async function create(event) {
  event.preventDefault();
  showError("");
  let body;
  try {
    body = request();
  } catch (error) {
    showError(error.message);
    return;
  }
  const button = byId("create-form").querySelector("button[type=submit]");
  button.disabled = true;
  try {
    showCreated(await postJSON("/api/games", body));
  } catch (error) {
    showError(error instanceof ApiError ? t("lobby.notCreated", { message: error.message }) : String(error));
  } finally {
    button.disabled = false;
  }
}

function showCreated(created) {
  const rows = Object.entries(created.links ?? {}).map(([family, url]) =>
    linkRow({ label: familyName(family), family, url, testid: `link-${family}`, note: family === state.mine ? t("lobby.you") : "" }),
  );
  rows.push(linkRow({ label: t("lobby.spectators"), url: created.spectate, testid: "spectate-link", open: t("lobby.watch") }));
  fill(byId("links"), rows);
  fill(byId("table-link"), linkRow({ label: t("lobby.yourTableLink"), url: created.table, testid: "table-link" }));
  const go = byId("go-to-seat");
  const mine = created.links?.[state.mine];
  go.href = mine ?? created.spectate;
  go.textContent = mine ? t("lobby.goToSeatOf", { family: familyName(state.mine) }) : t("lobby.watchGame");
  byId("go-note").textContent = mine ? t("lobby.seatOpens") : t("lobby.gameOpens");
  const families = Object.fromEntries(playing().map((family) => [family, state.seats[family]]));
  const kept = rememberGame({
    id: created.id,
    when: new Date().toISOString(),
    families,
    table: created.table,
    mine: mine ? state.mine : null,
  });
  byId("kept").textContent = kept ? t("lobby.kept") : t("lobby.notKept");
  renderYourGames();
  byId("create-form").hidden = true;
  const panel = byId("created");
  panel.hidden = false;
  panel.focus();
}

// Your games.

// How many of the newest games ask the server how they stand: each one asked is read
// back into the server's memory.
const STATUS_OF = 10;

function when(game) {
  const date = new Date(game.when);
  if (Number.isNaN(date.getTime())) return t("lobby.someTime");
  return date.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

function familiesLine(game) {
  return Object.entries(game.families).map(([family, kind]) =>
    h(
      "span",
      { class: ["game-family", familyClass(family)] },
      h("span", { class: "swatch", "aria-hidden": "true" }),
      h("span", { class: "family-word", text: familyName(family) }),
      family === game.mine ? h("span", { class: "muted", text: ` ${t("lobby.you")}` }) : null,
      kind !== "person" ? h("span", { class: "muted", text: t("lobby.botOf", { kind: botName(kind) }) }) : null,
    ),
  );
}

function gameItem(game) {
  const status = h("span", { class: "game-status", testid: "your-game-status" });
  const item = h(
    "li",
    { class: "game-item", testid: "your-game", data: { gameId: game.id } },
    h("div", { class: "game-when" }, h("strong", { text: t("lobby.setWhen", { when: when(game) }) }), " ", status),
    h("div", { class: "game-families" }, familiesLine(game)),
    h(
      "div",
      { class: "game-actions" },
      h("a", { href: game.table, class: "button small primary", testid: "your-game-table", text: t("lobby.openTable") }),
      h("button", {
        type: "button",
        class: "small",
        testid: "your-game-forget",
        text: t("lobby.forget"),
        onclick: () => {
          const undo = forgetGame(game.id);
          item.replaceWith(forgottenItem(game, undo));
        },
      }),
    ),
  );
  return { item, status };
}

function forgottenItem(game, undo) {
  return h(
    "li",
    { class: "game-item forgotten", testid: "your-game-forgotten" },
    t("lobby.forgotten", { when: when(game) }),
    h("button", {
      type: "button",
      class: "small",
      testid: "your-game-undo",
      text: t("lobby.undo"),
      onclick: () => {
        undo?.();
        renderYourGames();
      },
    }),
  );
}

async function showStatus(game, status) {
  try {
    const seen = await getJSON(`/api/games/${encodeURIComponent(game.id)}/table`, tableToken(game.table));
    status.textContent = seen.over ? t("lobby.statusOver") : t("lobby.statusPlaying", { count: seen.step });
    status.dataset.state = seen.over ? "over" : "playing";
  } catch (error) {
    if (!(error instanceof ApiError)) return;
    if (error.status === 404) status.textContent = t("lobby.statusGone");
    else if (error.status === 403) status.textContent = t("lobby.statusRefused");
    else return;
    status.dataset.state = "gone";
  }
}

function renderYourGames() {
  const games = loadGames();
  const drawn = games.map(gameItem);
  fill(byId("your-games-list"), drawn.map(({ item }) => item));
  byId("your-games").hidden = games.length === 0;
  drawn.slice(0, STATUS_OF).forEach(({ status }, index) => showStatus(games[index], status));
}

// Starting.

function setUp() {
  const [first, ...others] = installed.families;
  for (const family of installed.families) state.seats[family] = ABSENT;
  state.seats[first] = PERSON;
  state.mine = first;
  const bot = installed.default_bot ?? PERSON;
  for (const family of others.slice(0, Math.max(installed.min_families - 1, 0))) state.seats[family] = bot;
  const sets = availableSets();
  state.set = sets.find((set) => set.name === "base")?.name ?? sets[0]?.name ?? null;
  // A mix draws from the game's own sets unless house rules are ticked on purpose.
  for (const set of sets) if (builtIn(set)) state.mix.add(set.name);
  renderSeats();
  renderPlugins();
  renderCards();
  renderVariants();
  for (const radio of document.querySelectorAll("input[name=cards-mode]")) {
    radio.addEventListener("change", (event) => {
      state.mode = event.target.value;
      renderCards();
    });
  }
  byId("first-player").addEventListener("change", (event) => (state.firstPlayer = event.target.value));
  byId("create-form").addEventListener("submit", create);
  byId("another").addEventListener("click", () => {
    byId("created").hidden = true;
    byId("create-form").hidden = false;
  });
}

async function start() {
  translatePage();
  byId("language-box").append(languageSelector());
  renderYourGames();
  const loading = byId("lobby-loading");
  try {
    installed = await getJSON("/api/installed");
  } catch (error) {
    loading.textContent = t("lobby.installedError", { message: error.message });
    loading.classList.add("error");
    return;
  }
  loading.hidden = true;
  showInstalled(installed, {
    plugins: byId("installed-plugins"),
    cards: byId("installed-cards"),
    problems: byId("problems"),
  });
  setUp();
  byId("create-form").hidden = false;
  document.body.dataset.ready = "true";
}

start();
