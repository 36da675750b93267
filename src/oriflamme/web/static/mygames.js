// "Your games": the tables set from this browser, kept in its localStorage so that a
// reload, the Back button or a closed tab never loses a friend's link. Each holds the
// table page's link, which opens every seat's link again. Nothing here goes to the
// server: it stays in this browser until forgotten.

const KEY = "oriflamme.games";
// The most games kept; the oldest go first (the server clears old games away too).
const MOST = 50;

function valid(game) {
  return (
    game !== null &&
    typeof game === "object" &&
    typeof game.id === "string" &&
    typeof game.table === "string" &&
    /^https?:\/\//.test(game.table) &&
    typeof game.when === "string" &&
    game.families !== null &&
    typeof game.families === "object"
  );
}

/** The games remembered here, newest first ([] where storage is unavailable). */
export function loadGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? list.filter(valid) : [];
  } catch {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST)));
    return true;
  } catch {
    return false; // a private window may refuse storage: the page works without it
  }
}

/**
 * Remembers `game` ({id, when, families: {family: "person" or bot kind}, table, mine}):
 * a new one goes first, one already kept is brought up to date where it stands (its
 * `when`, the day it was set, is kept). Returns whether it could be stored.
 */
export function rememberGame(game) {
  const list = loadGames();
  const index = list.findIndex((kept) => kept.id === game.id);
  if (index < 0) list.unshift(game);
  else list[index] = { ...list[index], ...game, when: list[index].when, mine: game.mine ?? list[index].mine };
  return save(list);
}

/** The game kept under `id`, or null. */
export function findGame(id) {
  return loadGames().find((game) => game.id === id) ?? null;
}

/** Forgets the game `id`; returns a function putting it back where it was (an undo). */
export function forgetGame(id) {
  const list = loadGames();
  const index = list.findIndex((game) => game.id === id);
  if (index < 0) return;
  const [gone] = list.splice(index, 1);
  save(list);
  return () => {
    const now = loadGames().filter((game) => game.id !== id);
    now.splice(Math.min(index, now.length), 0, gone);
    save(now);
  };
}

/** The creator's token in a table link's fragment, or null. */
export function tableToken(link) {
  try {
    return new URLSearchParams(new URL(link).hash.slice(1)).get("token") || null;
  } catch {
    return null;
  }
}
