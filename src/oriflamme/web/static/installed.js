// The lobby's list of what is installed: every plugin (as `oriflamme plugins` shows it)
// and every card of every set (as `oriflamme cards` shows it). A house-rule plugin's
// cards appear here as soon as it is installed, with nothing to change on the server.

import { fill, h } from "./dom.js";
import { lang, t, titled, variantName } from "./words.js";

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
  return list.length ? list.join(", ") : t("installed.none");
}

/**
 * Where a plugin comes from: built in, its package and version, or (a plugin the
 * server was started with, from no installed package) the server itself.
 */
export function pluginOrigin(plugin) {
  if (plugin.builtin) return t("installed.builtIn");
  return [plugin.distribution, plugin.version].filter(Boolean).join(" ") || t("installed.server");
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
      plugin.problem ? h("span", { class: "badge warn", text: t("installed.notLoaded") }) : null,
    ),
    facts([
      [t("installed.problem"), plugin.problem ?? null],
      [t("installed.sets"), names(plugin.sets ?? [])],
      [t("installed.cards"), names(plugin.cards ?? [])],
      [t("installed.abilities"), names(plugin.abilities ?? [])],
      [t("installed.variants"), names((plugin.variants ?? []).map((v) => variantName(v.name)))],
      [t("installed.hooks"), names(plugin.hooks ?? [])],
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
      h("strong", { text: titled(set.title || set.name) }),
      " ",
      h("span", { class: "muted", text: t("installed.setFacts", { name: set.name, plugin: set.plugin, count: set.cards.length }) }),
    ),
    // A narrow screen scrolls the table sideways in its own box, not the whole page.
    h(
      "div",
      { class: "table-scroll", testid: "card-table-scroll" },
      h(
        "table",
        { class: "card-table" },
        h(
          "thead",
          {},
          h("tr", {}, ["card", "key", "type", "text"].map((word) => h("th", { scope: "col", text: t(`installed.${word}`) }))),
        ),
        h(
          "tbody",
          {},
          set.cards.map((card) =>
            h(
              "tr",
              { testid: `installed-card-${card.key}` },
              h("th", { scope: "row", text: card.names?.[lang] ?? card.name }),
              h("td", {}, h("code", { text: card.key })),
              h("td", { text: t(`type.${card.type}`) }),
              h("td", { class: "card-text", text: card.texts?.[lang] ?? card.text }),
            ),
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
          h("strong", { text: t("installed.problems") }),
          h("ul", {}, found.map((problem) => h("li", { text: String(problem) }))),
        )
      : null,
  );
}
