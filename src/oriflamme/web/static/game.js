// The game page: one seat's view (or a spectator's), kept current over a websocket.
// The seat's secret token is read from the URL fragment (#token=...), which the
// browser never sends to the server with the page; the page sends it only in the
// Authorization header and as the websocket's first message, never in a URL. The
// server is the only judge: the page offers the view's legal answers, posts the one
// clicked with the step it was offered at, and draws what comes back.

import { drawTurn, isPlacement, stackSpots } from "./answers.js";
import { ApiError, fragmentToken, getJSON, postJSON, query } from "./api.js";
import { drawCardInfo, drawFamilies, drawLog, drawMine, drawQueue, drawScores } from "./board.js";
import { byId, fill, h } from "./dom.js";
import { familyClass } from "./families.js";

const parts = location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(parts[parts.length - 1] ?? "");
const token = fragmentToken();
const base = `/api/games/${encodeURIComponent(gameId)}`;
const MAX_RETRY_MS = 10000;

const ui = {
  live: null, // the latest view
  replay: null, // {step, steps, view} while stepping through a finished game
  replays: new Map(), // step -> view, fetched once
  selected: null, // the card chosen for a placement
  sending: false,
  answered: null, // the step an answer was sent for: never a second one for it
  error: "",
  note: "", // a calm word (wait before answering again), not an error
  waitUntil: 0, // after too many answers: no answer before this time (ms)
  waitTimer: null,
  info: null, // the card whose text is shown
  hover: null, // a queue position an answer names
  socket: null,
  timer: null, // the next reconnection
  retry: 0,
  stopped: false,
};

function shown() {
  return ui.replay ? ui.replay.view : ui.live;
}

function setConnection(text, state) {
  const element = byId("connection");
  element.textContent = text;
  element.dataset.state = state;
}

function fatal(message) {
  ui.stopped = true;
  ui.socket?.close();
  byId("game").hidden = true;
  const box = byId("page-error");
  fill(box, message, " ", h("a", { href: "/", text: "Set a new table" }));
  box.hidden = false;
  setConnection("Not connected", "closed");
}

const GONE = "There is no game at this address: it may have ended long ago and been cleared away.";
const NOT_A_SEAT = "This link does not open a seat of this game: check that it was copied whole.";

function refused(error) {
  if (error.status === 403) return NOT_A_SEAT;
  if (error.status === 404) return GONE;
  return `The game could not be read: ${error.message}`;
}

/** Takes a view from any channel; an older one than the latest is ignored. */
function accept(view) {
  if (ui.live && view.step < ui.live.step) return;
  if (!ui.live || view.step !== ui.live.step) {
    ui.selected = null;
    ui.error = "";
    if (!waiting()) ui.note = "";
    ui.hover = null;
  }
  ui.live = view;
  render();
}

function waiting() {
  return Date.now() < ui.waitUntil;
}

/** After a 429: no answer for `seconds`, said calmly, then the buttons come back. */
function waitBeforeAnswering(seconds) {
  const wait = Math.max(1, seconds ?? 5);
  ui.waitUntil = Date.now() + wait * 1000;
  ui.note = `That was a lot of answers in a short time: wait ${wait} ${wait === 1 ? "second" : "seconds"}, then answer again.`;
  clearTimeout(ui.waitTimer);
  ui.waitTimer = setTimeout(() => {
    ui.waitUntil = 0;
    ui.note = "";
    render();
  }, wait * 1000);
}

async function answer(index, step) {
  const live = ui.live;
  // One answer per step: a double click, or a click on buttons drawn for an older
  // view, sends nothing more (and the server refuses a second one for a step anyway).
  if (!live || ui.sending || ui.replay || waiting() || step !== live.step || ui.answered === step) return;
  ui.sending = true;
  ui.answered = step;
  ui.error = "";
  ui.note = "";
  render();
  try {
    accept(await postJSON(`${base}/answer`, { answer: live.answers[index], step }, token));
  } catch (error) {
    ui.answered = null; // not played: the same step may be answered again
    if (error instanceof ApiError && error.status === 409) {
      // Answered already (a retry, another tab of this seat) or no longer this seat's
      // turn: nothing is wrong, the page was behind. It catches up with the game.
      await catchUp(step, error.message);
    } else if (error instanceof ApiError && error.status === 429) {
      waitBeforeAnswering(error.retryAfter);
    } else {
      ui.error = error instanceof ApiError ? error.message : String(error);
    }
  } finally {
    ui.sending = false;
    render();
  }
}

/** Reads the view after a 409; the server's words are shown only if it has not moved on. */
async function catchUp(step, message) {
  try {
    accept(await getJSON(base, token));
  } catch {
    // The websocket brings the view as soon as it can.
  }
  if (ui.live && ui.live.step === step) ui.note = message;
}

async function replayTo(step) {
  const steps = ui.live.step;
  const target = Math.max(0, Math.min(step, steps));
  if (target === steps) {
    ui.replay = null;
    render();
    return;
  }
  try {
    let view = ui.replays.get(target);
    if (!view) {
      view = await getJSON(`${base}/replay${query({ step: target })}`, token);
      ui.replays.set(target, view);
    }
    ui.replay = { step: target, steps, view };
    ui.error = "";
  } catch (error) {
    ui.error = `The replay could not be read: ${error.message}`;
  }
  render();
}

function pick(card) {
  ui.info = card;
  const view = shown();
  if (!ui.replay && isPlacement(view) && view.answers.some((a) => a[0] === card.id)) ui.selected = card.id;
  render();
}

function highlight(position) {
  ui.hover = position;
  for (const stack of byId("queue").querySelectorAll(".stack")) {
    stack.classList.toggle("marked", Number(stack.dataset.position) === position);
  }
}

function drawHeader(view) {
  const phase = { placement: "placing cards", resolution: "resolving the queue", end: "game over" }[view.phase] ?? view.phase;
  byId("round").textContent = view.phase === "end" ? "Game over" : `Round ${view.round} · ${phase}`;
  const who = byId("who");
  who.className = ["who", view.seat && familyClass(view.seat)].filter(Boolean).join(" ");
  fill(
    who,
    view.seat
      ? [h("span", { class: "swatch", "aria-hidden": "true" }), `You play ${view.seat}`]
      : "Watching (spectator)",
  );
}

function drawEnd(live) {
  const end = byId("end");
  end.hidden = live.phase !== "end";
  if (end.hidden) return;
  drawScores(byId("scores-box"), live);
  const step = ui.replay ? ui.replay.step : live.step;
  byId("replay-step").textContent = `Step ${step} of ${live.step}`;
  byId("replay-start").disabled = step === 0;
  byId("replay-back").disabled = step === 0;
  byId("replay-forward").disabled = step === live.step;
  byId("replay-end").disabled = step === live.step;
}

function render() {
  const live = ui.live;
  if (!live) return;
  const view = shown();
  const replaying = ui.replay !== null;
  const asked = replaying ? { ...view, answers: [], answer_texts: [] } : view;
  const placement = isPlacement(asked);
  document.title = `${asked.answers.length ? "Your turn · " : ""}Oriflamme`;
  Object.assign(document.body.dataset, {
    step: String(live.step),
    phase: live.phase,
    asked: String(live.answers.length > 0),
    shownStep: String(view.step),
    replaying: String(replaying),
  });
  drawHeader(view);
  const turn = byId("turn");
  drawTurn(turn, asked, {
    selected: ui.selected,
    sending: ui.sending || waiting(),
    error: ui.error,
    note: ui.note,
    onAnswer: answer,
    onSelect: (id) => {
      ui.selected = id;
      render();
    },
    onHover: highlight,
  });
  turn.hidden = live.phase === "end" && !replaying;
  if (replaying) {
    turn.prepend(
      h("p", { class: "replay-banner", testid: "replay-banner", text: `Replay: the table after ${view.step} of ${live.step} answers.` }),
    );
  }
  drawEnd(live);
  drawQueue(byId("queue"), byId("direction"), view, {
    onPick: pick,
    marked: new Set(ui.hover === null ? [] : [ui.hover]),
    spots: placement && ui.selected !== null ? stackSpots(asked, ui.selected) : new Set(),
  });
  drawMine(byId("mine"), view, {
    onPick: pick,
    selectable: new Set(placement ? asked.answers.map((a) => a[0]) : []),
    selected: ui.selected,
  });
  drawFamilies(byId("families"), view, pick);
  drawCardInfo(byId("card-info"), view, ui.info);
  drawLog(byId("log"), view);
  byId("game").hidden = false;
}

function connect() {
  clearTimeout(ui.timer);
  ui.timer = null;
  if (ui.stopped || ui.socket !== null) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  // The token goes in the first message: a browser cannot put a header on a
  // websocket, and a URL would be kept in logs.
  const socket = new WebSocket(`${scheme}//${location.host}${base}/ws`);
  ui.socket = socket;
  let refusal = "";
  const kept = { log: [], events: [] }; // what this socket has been sent so far
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ token }));
  });
  socket.addEventListener("message", (event) => {
    let view;
    try {
      view = JSON.parse(event.data);
    } catch {
      return;
    }
    if (view && typeof view === "object" && typeof view.error === "string") {
      refusal = view.error; // the reason for the close that follows
    } else if (view && typeof view === "object" && Array.isArray(view.families)) {
      ui.retry = 0;
      setConnection("Live", "live");
      // A frame sends only the log lines and events this socket has not had yet.
      view.log = (view.log_from ? kept.log.slice(0, view.log_from) : []).concat(view.log ?? []);
      view.events = (view.events_from ? kept.events.slice(0, view.events_from) : []).concat(view.events ?? []);
      kept.log = view.log;
      kept.events = view.events;
      accept(view);
    }
  });
  socket.addEventListener("close", (event) => {
    if (ui.socket !== socket) return;
    ui.socket = null;
    if (event.code === 4403) return fatal(NOT_A_SEAT);
    if (event.code === 4404) return fatal(GONE);
    if (event.code === 4400) return fatal(`The game could not be followed: ${refusal || "the server refused the connection"}.`);
    if (ui.stopped) return;
    const wait = Math.min(MAX_RETRY_MS, 500 * 2 ** ui.retry);
    ui.retry += 1;
    setConnection("Reconnecting…", "reconnecting");
    ui.timer = setTimeout(connect, wait);
  });
}

async function start() {
  byId("replay-start").addEventListener("click", () => replayTo(0));
  byId("replay-back").addEventListener("click", () => replayTo((ui.replay ? ui.replay.step : ui.live.step) - 1));
  byId("replay-forward").addEventListener("click", () => replayTo((ui.replay ? ui.replay.step : ui.live.step) + 1));
  byId("replay-end").addEventListener("click", () => replayTo(ui.live.step));
  try {
    accept(await getJSON(base, token));
  } catch (error) {
    fatal(error instanceof ApiError ? refused(error) : String(error));
    return;
  }
  connect();
  document.addEventListener("visibilitychange", () => {
    // A tab brought back after its connection dropped catches up at once.
    if (document.visibilityState === "visible" && ui.socket === null) {
      ui.retry = 0;
      connect();
    }
  });
}

start();
