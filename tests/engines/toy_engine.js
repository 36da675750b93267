// A toy engine speaking the engine protocol (docs/engine-protocol.md), in plain
// Node.js with no packages: the proof that a runner needs nothing of our Python.
// It knows only the placement phase, and it has a bug on purpose: every card goes
// last in the queue, wherever it was asked to go. So it passes a scenario that
// places a card last, and fails one that places a card first.
"use strict";
const readline = require("readline");

let greeted = false;
let game = null; // {players, state, placed}

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function fail(id, code, message) {
  reply({ id, ok: false, error: { code, message } });
}

function asked() {
  const { players, state, placed } = game;
  const seat = (players.indexOf(state.first_player) + placed) % players.length;
  return { [players[seat]]: "place" };
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return fail(null, "bad_request", "the request is not JSON");
  }
  const id = request.id;
  if (request.op === "hello") {
    if (request.protocol !== 1) return fail(id, "version", "the toy speaks protocol 1");
    greeted = true;
    return reply({ id, ok: true, protocol: 1, engine: "toy engine 1" });
  }
  if (!greeted) return fail(id, "bad_request", "say hello first");
  switch (request.op) {
    case "load":
      if (request.state.phase !== "placement") {
        return fail(id, "unsupported", "the toy knows only the placement phase");
      }
      game = { players: request.players, state: request.state, placed: 0 };
      return reply({ id, ok: true });
    case "decision":
      return reply({ id, ok: true, next: asked() });
    case "answer": {
      const hand = game.state.hands[request.family];
      const card = request.answer.place;
      if (!hand.includes(card)) {
        return fail(id, "illegal_answer", `${card} is not in ${request.family}'s hand`);
      }
      hand.splice(hand.indexOf(card), 1);
      game.state.queue.push(card); // the bug: `at` is never read
      game.placed += 1;
      return reply({ id, ok: true });
    }
    case "state":
      return reply({ id, ok: true, state: game.state }); // unknown keys are ignored
    case "quit":
      reply({ id, ok: true });
      return input.close(); // Node exits once its output is written
    default:
      return fail(id, "unsupported", `no op ${request.op}`);
  }
});
