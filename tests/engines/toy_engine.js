// A toy Oriflamme engine speaking the engine protocol (docs/engine-protocol.md), in
// plain Node.js (18 or later) with no packages: the proof that an engine needs none of
// this project's Python, and a starting point for an engine of your own.
//
// What it passes: the `placement` subset of the conformance suite, every scenario of
// tests/conformance/placement, and no other scenario of the suite:
//
//   oriflamme conformance --engine "node tests/engines/toy_engine.js" tests/conformance/placement
//   oriflamme conformance --engine "node tests/engines/toy_engine.js" --subset placement
//
// What it plays: the placement phase of the base set, and nothing else. From the first
// player, clockwise, each family places one card from its hand face down, at the first
// or last end of the queue, or from round 2 on top of a position whose top card is its
// own (RULINGS G4); a family with no card is skipped (docs/rulings.md P3); a family
// with one card and one place to put it is not asked (RULINGS R4). Every answer the
// rules refuse is refused (`illegal_answer`, or `unknown_card` for a name that is no
// card of the game) and leaves the game exactly as it was.
//
// What it refuses with `unsupported`, so that the rest of the suite fails at once and
// cleanly: another set than the base set alone, any variant, a position in the
// resolution phase, and the placement that would end the placement phase (the last
// one of the round), since the game would then go on into the resolution phase.
//
// A full engine adds, where the comments marked "A full engine" say: the resolution
// phase (reveals, tokens, each card's ability, the walk of RULINGS R1-R8), the rounds
// and the end of the game (G5, G6), the Ablaze set (Bribery changes who owns a card,
// R3), the variants, and the checks of a loaded position.
"use strict";
const readline = require("readline");

const OPS = ["hello", "load", "decision", "answer", "state", "quit"];
// The answer forms of the scenario format (docs/scenarios.md, play), with the JSON
// type of each value.
const FORMS = [["place", "at"], ["reveal"], ["target"], ["to"], ["at"], ["choose"]];
const TYPES = {
  place: "string",
  at: "string",
  reveal: "boolean",
  target: "string",
  to: "number", // an integer
  choose: "string",
};
const ZONES = ["hands", "set_aside", "reserve", "discarded", "eliminated"];

let greeted = false;
let quitting = false;
// The game: {players, state, cards, turn}. `state` is in the scenario notation;
// `cards` lists every card id of the loaded position; `turn` counts the seats, from
// the first player clockwise, whose turn in this placement phase is over.
let game = null;

class Refused extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
function refuse(code, message) {
  throw new Refused(code, message);
}

// Queue entries, in the notation: a card is an id or {card, up, tokens, owner}; a
// stack is a list of cards, bottom first. Only the top card of an entry is in play.
const cardId = (card) => (typeof card === "string" ? card : card.card);
const topOf = (entry) => cardId(Array.isArray(entry) ? entry[entry.length - 1] : entry);
// In the base set a card belongs to the family its id names. A full engine with
// Ablaze reads `owner` too: a Bribery token makes the card its family's (RULINGS R3).
const familyOf = (id) => id.split(".")[0];

function withDefaults(players, state) {
  // The runner sends every key with its default (docs/engine-protocol.md, load);
  // another client may send less, and the format's defaults fill it in.
  const zone = (given) => Object.fromEntries(players.map((f) => [f, (given || {})[f] || []]));
  const full = {
    round: state.round ?? 1,
    phase: state.phase ?? "placement",
    first_player: state.first_player ?? players[0],
    influence: Object.fromEntries(players.map((f) => [f, (state.influence || {})[f] ?? 1])),
    queue: state.queue ?? [],
  };
  for (const name of ZONES) full[name] = zone(state[name]);
  return full;
}

function load(request) {
  game = null; // a refused load leaves no game
  const { sets, players, variants, state } = request;
  if (!Array.isArray(sets) || !Array.isArray(players) || !state || typeof state !== "object") {
    refuse("bad_request", "load needs sets, players and state");
  }
  if (sets.length !== 1 || sets[0] !== "base") {
    refuse("unsupported", `the toy knows the base set alone, not ${JSON.stringify(sets)}`);
  }
  if (variants && Object.keys(variants).length > 0) {
    refuse("unsupported", "the toy has no variants"); // a full engine: ambush_own_elimination
  }
  const full = withDefaults(players, state);
  if (full.phase !== "placement") {
    refuse("unsupported", "the toy knows the placement phase alone, not the resolution phase");
  }
  // A full engine checks the position here: its notation (bad_request), its card ids
  // (unknown_card) and whether the rules can reach it (illegal_position, the format's
  // "Positions that are refused"). The runner checks every scenario's position before
  // it sends it, so the toy takes it as it comes.
  const cards = full.queue.flatMap((entry) => (Array.isArray(entry) ? entry : [entry]).map(cardId));
  for (const name of ZONES) for (const f of players) cards.push(...full[name][f]);
  const loaded = { players, state: full, cards, turn: 0 };
  playOn(loaded);
  game = loaded;
}

// Where `family` may place a card: at either end, or from round 2 on the top card of
// a position that is its own, face up or down (G4). Never between two positions.
function spots(g, family) {
  const { queue, round } = g.state;
  const own = round >= 2 ? queue.map(topOf).filter((id) => familyOf(id) === family) : [];
  return ["first", "last", ...own];
}

function put(g, family, card, at) {
  const { hands, queue } = g.state;
  hands[family].splice(hands[family].indexOf(card), 1);
  if (at === "first") queue.unshift(card); // face down, no token: the bare id
  else if (at === "last") queue.push(card);
  else {
    const index = queue.findIndex((entry) => topOf(entry) === at);
    queue[index] = Array.isArray(queue[index]) ? [...queue[index], card] : [queue[index], card];
  }
}

function seat(g) {
  const start = g.players.indexOf(g.state.first_player);
  return g.players[(start + g.turn) % g.players.length];
}

// Play on to the next question: skip a family with no card (P3), place unasked the
// card of a family with one answer (R4), and stop at the family to ask.
function playOn(g) {
  for (; g.turn < g.players.length; g.turn += 1) {
    const family = seat(g);
    const hand = g.state.hands[family];
    if (hand.length === 0) continue;
    // One card, and an empty queue, whose two ends are one place: one answer.
    if (hand.length === 1 && g.state.queue.length === 0) put(g, family, hand[0], "first");
    else return;
  }
  // Every family has placed. A full engine starts the resolution phase here, at the
  // first position of the queue (R1), and plays on to its first question.
  refuse("unsupported", "this ends the placement phase: the toy has no resolution phase");
}

function answer(request) {
  const { family, answer: given } = request;
  if (typeof family !== "string" || !game.players.includes(family)) {
    refuse("bad_request", `'family' must be one of ${game.players.join(", ")}`);
  }
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    refuse("bad_request", "'answer' must be an object");
  }
  // The notation: exactly one answer form, each value of its JSON type. `error` is a
  // scenario's mark, never sent by the runner, and ignored as any unknown field would be.
  // (JSON.parse reads 1.0 as 1: the toy cannot tell `{to: 1.0}` from `{to: 1}`.)
  const keys = Object.keys(given).filter((key) => key !== "error").sort();
  const form = FORMS.find((f) => [...f].sort().join() === keys.join());
  const typed = keys.every((key) => typeof given[key] === TYPES[key]);
  if (!form || !typed || (form[0] === "to" && !Number.isInteger(given.to))) {
    refuse("bad_request", `${JSON.stringify(given)} is not an answer of the scenario format`);
  }
  // What it names: a card value that is neither an end nor a card of this game.
  for (const key of ["place", "target", "at"]) {
    const value = given[key];
    const end = value === "first" || value === "last";
    if (value !== undefined && !end && !game.cards.includes(value)) {
      refuse("unknown_card", `${key}: ${value} is no card of this game`);
    }
  }
  // The rules. Nothing has changed yet, and nothing changes if any check fails.
  const asked = seat(game);
  if (family !== asked) refuse("illegal_answer", `${family}: it is ${asked}'s turn to place`);
  if (form[0] !== "place") {
    // A full engine answers reveals, targets, moves, Twins and choices in the
    // resolution phase; here only a placement is ever asked.
    refuse("illegal_answer", `${family}: ${JSON.stringify(given)} is not a placement`);
  }
  const { place: card, at } = given;
  if (!game.state.hands[family].includes(card)) {
    refuse("illegal_answer", `${family}: ${card} is not in ${family}'s hand`);
  }
  if (!spots(game, family).includes(at)) {
    refuse(
      "illegal_answer",
      `${family}: a card goes at the first or last end, or from round 2 on top of a ` +
        `position whose top card is ${family}'s own, not on ${at}`,
    );
  }
  // Play on a copy, and keep it only once the answer is played through: the game is
  // left as it was if playOn refuses (docs/engine-protocol.md, the game as it was).
  const next = structuredClone(game);
  put(next, family, card, at);
  next.turn += 1;
  playOn(next);
  game = next;
}

function perform(request) {
  const op = request.op;
  if (!OPS.includes(op)) {
    refuse("unsupported", `no op ${JSON.stringify(op)}: the toy knows ${OPS.join(", ")}`);
  }
  if (op === "hello") {
    // JSON.parse reads 1.0 as 1: a full engine that must refuse 1.0 reads the raw text.
    if (request.protocol !== 1) refuse("version", "the toy speaks protocol 1");
    greeted = true;
    return { protocol: 1, engine: "toy engine (placement phase of the base set)" };
  }
  if (!greeted) refuse("bad_request", "say hello first (protocol 1)");
  if (op === "quit") {
    quitting = true; // the reply is written, then the toy stops reading and exits
    return {};
  }
  if (op === "load") {
    load(request);
    return {};
  }
  if (game === null) refuse("bad_request", "no position is loaded: send load first");
  if (op === "decision") return { next: { [seat(game)]: "place" } }; // a full engine: or "end"
  if (op === "state") return { state: game.state }; // the runner ignores first_player
  answer(request);
  return {};
}

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function fail(id, code, message) {
  reply({ id, ok: false, error: { code, message } });
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (quitting) return; // lines already read past a quit
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return fail(null, "bad_request", "the request is not JSON");
  }
  const id = request !== null && typeof request === "object" ? request.id : undefined;
  if (!Number.isInteger(id)) return fail(null, "bad_request", "a request needs an integer 'id'");
  try {
    reply({ id, ok: true, ...perform(request) });
  } catch (error) {
    // Every request gets its one reply. A bug is an engine_error: the game is as it
    // was, since an answer is played on a copy.
    const code = error instanceof Refused ? error.code : "engine_error";
    fail(id, code, String(error.message).split("\n")[0]);
  }
  if (quitting) {
    // Stop reading, even with stdin still open: Node exits once the reply is written.
    input.close();
    process.stdin.destroy();
  }
});
