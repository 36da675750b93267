// The lobby: reads what is installed and creates a game through POST /api/games.

import { ApiError, getJSON, postJSON } from "./api.js";
import { byId, fill, h, plural } from "./dom.js";
import { familyClass } from "./families.js";
import { pluginOrigin, showInstalled } from "./installed.js";

const PERSON = "person";
const ABSENT = "";
const WATCH = "";

let installed = null;
const state = {
  seats: {}, // family -> PERSON, a bot kind, or ABSENT
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
    h("option", { value: ABSENT, text: "not playing", selected: kind === ABSENT }),
    h("option", { value: PERSON, text: "a person", selected: kind === PERSON }),
    installed.bots.map((bot) => h("option", { value: bot, text: `bot: ${bot}`, selected: kind === bot })),
  );
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
      h("span", { class: "family-word", text: family }),
    ),
    select,
    h("label", { class: "mine" }, radio, " my seat"),
  );
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
  fill(byId("seats"), installed.families.map(seatRow), h("label", { class: "watch" }, watch, " I only watch"));
  const count = playing().length;
  const { min_families: least, max_families: most } = installed;
  const people = playing().filter((f) => state.seats[f] === PERSON).length;
  byId("seat-count").textContent =
    `${plural(count, "family", "families")}, ${plural(people, "person", "people")}` +
    (count < least || count > most ? ` (a game needs ${least} to ${most})` : ".");
  renderFirstPlayer();
}

function renderFirstPlayer() {
  const select = byId("first-player");
  if (!playing().includes(state.firstPlayer)) state.firstPlayer = "";
  fill(
    select,
    h("option", { value: "", text: "drawn at random", selected: state.firstPlayer === "" }),
    playing().map((f) => h("option", { value: f, text: f, selected: state.firstPlayer === f })),
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
      h("label", { for: "set", text: "Set" }),
      h(
        "select",
        { id: "set", testid: "set", onchange: (event) => (state.set = event.target.value) },
        sets.map((set) =>
          h("option", {
            value: set.name,
            text: `${set.title || set.name} (${plural(set.cards.length, "card")})`,
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
        h("legend", { text: "Draw from" }),
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
            ` ${set.title || set.name}`,
          ),
        ),
      ),
      h(
        "div",
        { class: "field-row" },
        h("label", { for: "size", text: "Card types per family" }),
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
      h("legend", { text: set.title || set.name }),
      set.cards.map((card) =>
        h(
          "label",
          { title: card.text },
          h("input", {
            type: "checkbox",
            testid: `card-${card.key}`,
            checked: state.cards.has(card.key),
            onchange: (event) => toggle(state.cards, card.key, event.target.checked),
          }),
          ` ${card.name}`,
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
    h("label", { for: id }, h("strong", { text: variant.name }), " ", h("span", { class: "badge", text: variant.plugin })),
    h(
      "select",
      { id, testid: id, onchange: (event) => (state.variants[variant.name] = Number(event.target.value)) },
      variant.values.map((value, index) =>
        h("option", {
          value: index,
          text: String(value) + (JSON.stringify(value) === JSON.stringify(variant.default) ? " (default)" : ""),
          selected: index === state.variants[variant.name],
        }),
      ),
    ),
    h("p", { class: "hint", text: variant.help }),
  );
}

function renderVariants() {
  const variants = availableVariants();
  fill(
    byId("variants"),
    variants.length ? variants.map(variantRow) : h("p", { class: "hint", text: "No installed plugin offers a variant." }),
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
        h("strong", { text: plugin.name }),
        " ",
        h("span", {
          class: "muted",
          text: plugin.problem ? `(not loaded: ${plugin.problem})` : `(${pluginOrigin(plugin)})`,
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
    if (!state.set) throw new Error("Choose a set.");
    body.sets = [state.set];
  } else if (state.mode === "mix") {
    const chosen = sets.filter((set) => state.mix.has(set.name)).map((set) => set.name);
    if (!chosen.length) throw new Error("Choose at least one set to draw from.");
    const size = Number(state.size);
    if (!Number.isInteger(size) || size < 1) throw new Error("The number of card types must be a whole number, 1 or more.");
    body.sets = chosen;
    body.size = size;
  } else {
    const keys = sets.flatMap((set) => set.cards.map((card) => card.key)).filter((key) => state.cards.has(key));
    if (!keys.length) throw new Error("Choose at least one card.");
    body.cards = keys;
    body.sets = sets.filter((set) => set.cards.some((card) => state.cards.has(card.key))).map((set) => set.name);
  }
  for (const variant of availableVariants()) {
    body.variants[variant.name] = variant.values[state.variants[variant.name]];
  }
  const seed = byId("seed").value.trim();
  if (seed !== "") {
    if (!/^-?\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
      throw new Error(`The seed must be a whole number (at most ${Number.MAX_SAFE_INTEGER}), or empty.`);
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
    showError(error instanceof ApiError ? `The game was not created: ${error.message}` : String(error));
  } finally {
    button.disabled = false;
  }
}

function linkRow(label, family, url, testid, note = "") {
  const input = h("input", { type: "text", readonly: true, value: url, testid, "aria-label": `${label} link` });
  const copy = h("button", {
    type: "button",
    class: "small",
    text: "Copy",
    onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Selected: copy it";
      }
    },
  });
  return h(
    "div",
    { class: ["link-row", family && familyClass(family)] },
    h(
      "span",
      { class: "seat-name" },
      family ? h("span", { class: "swatch", "aria-hidden": "true" }) : null,
      h("span", { class: "family-word", text: label }),
      note ? h("span", { class: "muted", text: ` ${note}` }) : null,
    ),
    input,
    copy,
    h("a", { href: url, class: "button small", target: "_blank", rel: "noopener noreferrer", text: "Open" }),
  );
}

function showCreated(created) {
  const rows = Object.entries(created.links ?? {}).map(([family, url]) =>
    linkRow(family, family, url, `link-${family}`, family === state.mine ? "(you)" : ""),
  );
  rows.push(linkRow("Spectators", null, created.spectate, "spectate-link"));
  fill(byId("links"), rows);
  const go = byId("go-to-seat");
  const mine = created.links?.[state.mine];
  go.href = mine ?? created.spectate;
  go.textContent = mine ? `Go to my seat (${state.mine})` : "Watch the game";
  byId("create-form").hidden = true;
  const panel = byId("created");
  panel.hidden = false;
  panel.focus();
}

// Starting.

function setUp() {
  const [first, ...others] = installed.families;
  for (const family of installed.families) state.seats[family] = ABSENT;
  state.seats[first] = PERSON;
  state.mine = first;
  const bot = installed.bots[0] ?? PERSON;
  for (const family of others.slice(0, Math.max(installed.min_families - 1, 0))) state.seats[family] = bot;
  const sets = availableSets();
  state.set = sets.find((set) => set.name === "base")?.name ?? sets[0]?.name ?? null;
  for (const set of sets) state.mix.add(set.name);
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
  const loading = byId("lobby-loading");
  try {
    installed = await getJSON("/api/installed");
  } catch (error) {
    loading.textContent = `What is installed could not be read: ${error.message}`;
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
