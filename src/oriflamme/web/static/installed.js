// The lobby's list of what is installed: every plugin (as `oriflamme plugins` shows it)
// and every card of every set (as `oriflamme cards` shows it). A house-rule plugin's
// cards appear here as soon as it is installed, with nothing to change on the server.

import { fill, h, plural } from "./dom.js";

function facts(rows) {
  return h(
    "dl",
    { class: "facts" },
    rows
      .filter(([, value]) => value !== null && value !== "")
      .map(([term, value]) => [h("dt", { text: term }), h("dd", {}, value)]),
  );
}

function names(list) {
  return list.length ? list.join(", ") : "none";
}

/**
 * Where a plugin comes from: built in, its package and version, or (a plugin the
 * server was started with, from no installed package) the server itself.
 */
export function pluginOrigin(plugin) {
  if (plugin.builtin) return "built in";
  return [plugin.distribution, plugin.version].filter(Boolean).join(" ") || "added by this server";
}

function pluginEntry(plugin) {
  const origin = pluginOrigin(plugin);
  return h(
    "details",
    { class: ["plugin", plugin.problem && "has-problem"], testid: `installed-plugin-${plugin.name}` },
    h(
      "summary",
      {},
      h("strong", { text: plugin.name }),
      " ",
      h("span", { class: "muted", text: `(${origin})` }),
      plugin.problem ? h("span", { class: "badge warn", text: "not loaded" }) : null,
    ),
    facts([
      ["Problem", plugin.problem ?? null],
      ["Sets", names(plugin.sets ?? [])],
      ["Cards", names(plugin.cards ?? [])],
      ["Abilities", names(plugin.abilities ?? [])],
      ["Variants", names((plugin.variants ?? []).map((v) => v.name))],
      ["Hooks", names(plugin.hooks ?? [])],
    ]),
  );
}

function setEntry(set) {
  return h(
    "details",
    { class: "card-set", testid: `installed-set-${set.name}` },
    h(
      "summary",
      {},
      h("strong", { text: set.title || set.name }),
      " ",
      h("span", { class: "muted", text: `(set ${set.name}, plugin ${set.plugin}, ${plural(set.cards.length, "card")})` }),
    ),
    h(
      "table",
      { class: "card-table" },
      h("thead", {}, h("tr", {}, ["Card", "Key", "Type", "Text"].map((t) => h("th", { scope: "col", text: t })))),
      h(
        "tbody",
        {},
        set.cards.map((card) =>
          h(
            "tr",
            { testid: `installed-card-${card.key}` },
            h("th", { scope: "row", text: card.name }),
            h("td", {}, h("code", { text: card.key })),
            h("td", { text: card.type }),
            h("td", { class: "card-text", text: card.text }),
          ),
        ),
      ),
    ),
  );
}

/** Fills the listing from GET /api/installed. */
export function showInstalled(installed, { plugins, cards, problems }) {
  fill(plugins, installed.plugins.map(pluginEntry));
  fill(cards, installed.sets.map(setEntry));
  const found = installed.problems ?? [];
  fill(
    problems,
    found.length
      ? h(
          "div",
          { class: "notice warn", role: "status" },
          h("strong", { text: "Some plugins could not be loaded:" }),
          h("ul", {}, found.map((problem) => h("li", { text: String(problem) }))),
        )
      : null,
  );
}
