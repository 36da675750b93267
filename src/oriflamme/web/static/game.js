// The game page: one seat's view (or a spectator's), kept current over a websocket.
// The seat's secret token is read from the URL fragment (#token=...), which the
// browser never sends to the server with the page; the page sends it only in the
// Authorization header and as the websocket's first message, never in a URL. The
// server is the only judge: the page offers the view's legal answers, posts the one
// clicked with the step it was offered at, and draws what comes back.

import { drawTurn, isPlacement, stackSpots } from "./answers.js";
import { ApiError, fragmentToken, getJSON, postJSON, query } from "./api.js";
import {
  drawCardInfo,
  drawFamilies,
  drawInfluenceBar,
  drawLog,
  drawMine,
  drawQueue,
  drawScores,
  followLog,
} from "./board.js";
import { byId, fill, h } from "./dom.js";
import { familyClass } from "./families.js";
import { fitCards, queueCue } from "./fit.js";
import { familyName, lang, languageSelector, t, translatePage } from "./words.js";

const parts = location.pathname.split("/").filter(Boolean);
const gameId = decodeURIComponent(parts[parts.length - 1] ?? "");
const token = fragmentToken();
const base = `/api/games/${encodeURIComponent(gameId)}`;
// The sentences, card names and texts come in the page's language.
const language = query({ language: lang });
const MAX_RETRY_MS = 10000;
// Below this width the page is one column and a card's text opens at the bottom.
const PHONE = window.matchMedia("(max-width: 640px)");

const ui = {
  live: null, // the latest view
  replay: null, // {step, steps, view} while stepping through a finished game
  replays: new Map(), // step -> view, fetched once
  replayError: "", // why the replay could not be read, said beside its buttons
  selected: null, // the card chosen for a placement
  sending: false,
  answered: null, // the step an answer was sent for: never a second one for it
  error: "",
  note: "", // a calm word (wait before answering again), not an error
  waitUntil: 0, // after too many answers: no answer before this time (ms)
  waitTimer: null,
  info: null, // the card whose text is shown
  infoFrom: null, // the element it was tapped on, to open its text beside it
  hover: null, // a queue position an answer names
  online: true, // false while the connection is lost: nothing can be answered
  last: new Set(), // the cards the newest move touched
  logFrom: Infinity, // the first log line of the newest move
  seen: null, // {step, events, log}: how far the last step shown had got
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
  fill(box, message, " ", h("a", { href: "/", text: t("game.newTable") }));
  box.hidden = false;
  setConnection(t("game.closed"), "closed");
}

function refused(error) {
  if (error.status === 403) return t("game.notASeat");
  if (error.status === 404) return t("game.gone");
  return t("game.unreadable", { message: error.message });
}

const CARD_FIELDS = ["card", "by"];

/** The card ids `events` name (the cards a move touched). */
function touched(events) {
  const found = new Set();
  for (const event of events) {
    for (const field of CARD_FIELDS) if (Number.isInteger(event[field])) found.add(event[field]);
  }
  return found;
}

/** The newest move in `view`, for a page that has seen nothing of it before: from
 * the last event that names a card on. */
function newestMove(view) {
  const events = view.events ?? [];
  let index = events.length - 1;
  while (index > 0 && touched([events[index]]).size === 0) index -= 1;
  return { cards: touched(events.slice(Math.max(index, 0))), logFrom: Math.max((view.log ?? []).length - 1, 0) };
}

/** Notes what the newest step did: the cards its events touched, its log lines. */
function noteMove(view) {
  const seen = ui.seen;
  const events = view.events ?? [];
  const log = view.log ?? [];
  if (seen && seen.step < view.step && seen.events <= events.length) {
    const fresh = touched(events.slice(seen.events));
    if (fresh.size) ui.last = fresh;
    if (seen.log < log.length) ui.logFrom = seen.log;
  } else if (!seen || seen.step !== view.step) {
    const move = newestMove(view);
    ui.last = move.cards;
    ui.logFrom = move.logFrom;
  }
  ui.seen = { step: view.step, events: events.length, log: log.length };
}

/** Takes a view from any channel; an older one than the latest is ignored. */
function accept(view) {
  if (ui.live && view.step < ui.live.step) return;
  if (!ui.live || view.step !== ui.live.step) {
    ui.selected = null;
    ui.error = "";
    if (!waiting()) ui.note = "";
    ui.hover = null;
    noteMove(view);
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
  ui.note = t("game.wait", { wait });
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
  if (!live || ui.sending || ui.replay || waiting() || !ui.online || step !== live.step || ui.answered === step) return;
  ui.sending = true;
  ui.answered = step;
  ui.error = "";
  ui.note = "";
  render();
  try {
    accept(await postJSON(`${base}/answer${language}`, { answer: live.answers[index], step }, token));
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
    accept(await getJSON(`${base}${language}`, token));
  } catch {
    // The websocket brings the view as soon as it can.
  }
  if (ui.live && ui.live.step === step) ui.note = message;
}

/** Shows the table after `step` answers (the live one at the last step). A step the
 * server refuses is said beside the replay's buttons, where the person looks. */
async function replayTo(step) {
  const steps = ui.live.step;
  const target = Math.max(0, Math.min(step, steps));
  if (target === steps) {
    ui.replay = null;
    ui.replayError = "";
    const move = newestMove(ui.live);
    ui.last = move.cards;
    ui.logFrom = move.logFrom;
    render();
    return;
  }
  try {
    let view = ui.replays.get(target);
    if (!view) {
      view = await getJSON(`${base}/replay${query({ step: target, language: lang })}`, token);
      ui.replays.set(target, view);
    }
    ui.replay = { step: target, steps, view };
    ui.replayError = "";
    const move = newestMove(view);
    ui.last = move.cards;
    ui.logFrom = move.logFrom;
  } catch (error) {
    ui.replayError = t("game.replayError", { message: error.message });
  }
  render();
}

function pick(card, from) {
  const again = ui.info?.id === card.id && ui.infoFrom === from;
  ui.info = again ? null : card;
  ui.infoFrom = again ? null : from ?? null;
  const view = shown();
  if (!ui.replay && isPlacement(view) && view.answers.some((a) => a[0] === card.id)) ui.selected = card.id;
  render();
}

function closeInfo() {
  ui.info = null;
  ui.infoFrom = null;
  render();
}

/** Opens the tapped card's text beside it (below, or above if there is no room), in
 * the window; on a phone, at the bottom of the screen. */
function placeInfo() {
  const box = byId("card-info");
  if (box.hidden) return;
  box.classList.toggle("sheet", PHONE.matches);
  box.style.left = "";
  box.style.top = "";
  if (PHONE.matches) return;
  const id = ui.info?.id;
  let from = ui.infoFrom;
  if (!from || !from.isConnected) {
    from = document.querySelector(`#game [data-card-id="${id}"]`);
    ui.infoFrom = from;
  }
  if (!from) return;
  const rect = from.getBoundingClientRect();
  const width = box.offsetWidth;
  const height = box.offsetHeight;
  const margin = 8;
  let left = Math.min(rect.left, window.innerWidth - width - margin);
  left = Math.max(margin, left);
  let top = rect.bottom + margin;
  if (top + height > window.innerHeight - margin) top = rect.top - height - margin;
  if (top < margin) top = Math.max(margin, Math.min(rect.top, window.innerHeight - height - margin));
  box.style.left = `${left + window.scrollX}px`;
  box.style.top = `${top + window.scrollY}px`;
}

function highlight(position) {
  ui.hover = position;
  for (const stack of byId("queue").querySelectorAll(".stack")) {
    stack.classList.toggle("marked", Number(stack.dataset.position) === position);
  }
}

function drawHeader(view) {
  const phase = ["placement", "resolution", "end"].includes(view.phase) ? t(`phase.${view.phase}`) : view.phase;
  byId("round").textContent = view.phase === "end" ? t("game.over") : t("game.round", { round: view.round, phase });
  const who = byId("who");
  who.className = ["who", view.seat && familyClass(view.seat)].filter(Boolean).join(" ");
  fill(
    who,
    view.seat
      ? [h("span", { class: "swatch", "aria-hidden": "true" }), t("game.youPlay", { family: familyName(view.seat) })]
      : t("game.watching"),
  );
  drawInfluenceBar(byId("influence-bar"), view);
}

function drawEnd(live) {
  const end = byId("end");
  end.hidden = live.phase !== "end";
  if (end.hidden) return;
  drawScores(byId("scores-box"), live);
  const step = ui.replay ? ui.replay.step : live.step;
  byId("replay-step").textContent = t("game.replayStep", { step, steps: live.step });
  const error = byId("replay-error");
  error.textContent = ui.replayError ?? "";
  error.hidden = !ui.replayError;
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
  document.title = `${asked.answers.length ? t("game.yourTurnTitle") : ""}Oriflamme`;
  Object.assign(document.body.dataset, {
    step: String(live.step),
    phase: live.phase,
    asked: String(live.answers.length > 0),
    shownStep: String(view.step),
    replaying: String(replaying),
    online: String(ui.online),
  });
  drawHeader(view);
  const turn = byId("turn");
  drawTurn(turn, asked, {
    selected: ui.selected,
    sending: ui.sending || waiting(),
    offline: !ui.online && !replaying && live.phase !== "end",
    error: ui.error,
    note: ui.note,
    lastMove: lastLine(view),
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
      h("p", { class: "replay-banner", testid: "replay-banner", text: t("game.replayBanner", { step: view.step, steps: live.step }) }),
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
  drawCardInfo(byId("card-info"), view, ui.info, closeInfo);
  const follow = drawLog(byId("log"), view, ui.logFrom);
  markLastMove();
  byId("game").hidden = false;
  if (follow) followLog(byId("log"));
  fitCards(byId("game"));
  cue();
  placeInfo();
  measureHead();
}

/** The newest line of the log that is not a detail of another: the last move, said. */
function lastLine(view) {
  const log = view.log ?? [];
  for (let index = log.length - 1; index >= 0; index -= 1) {
    if (!log[index].startsWith(" ")) return log[index].trim();
  }
  return "";
}

/** Marks the cards the newest move touched, wherever they are now: a card says so in
 * a pill of its own, laid out after its badges (a bribe's pill stays clear of it). */
function markLastMove() {
  for (const element of document.querySelectorAll("#game [data-card-id]")) {
    const last = ui.last.has(Number(element.dataset.cardId));
    element.classList.toggle("last-move", last);
    element.querySelector(":scope > .last-mark")?.remove();
    if (last && element.classList.contains("card")) {
      element.append(h("span", { class: "last-mark", testid: "last-mark", "aria-hidden": "true", text: t("card.last") }));
    }
  }
}

function cue() {
  queueCue(byId("queue"), byId("queue-before"), byId("queue-more"), {
    more: (count) => t("queue.more", { count }),
    before: (count) => t("queue.before", { count }),
  });
}

/** The header stays at the top: the side column sticks just under it. */
function measureHead() {
  document.documentElement.style.setProperty("--head", `${byId("game-head").offsetHeight}px`);
}

function setOnline(online) {
  if (ui.online === online) return;
  ui.online = online;
  render();
}

function connect() {
  clearTimeout(ui.timer);
  ui.timer = null;
  if (ui.stopped || ui.socket !== null) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  // The token goes in the first message: a browser cannot put a header on a
  // websocket, and a URL would be kept in logs.
  const socket = new WebSocket(`${scheme}//${location.host}${base}/ws${language}`);
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
      setConnection(t("game.live"), "live");
      ui.online = true;
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
    if (event.code === 4400) {
      return fatal(t("game.unfollowed", { message: refusal || t("game.refusedConnection") }));
    }
    if (ui.stopped) return;
    const wait = Math.min(MAX_RETRY_MS, 500 * 2 ** ui.retry);
    ui.retry += 1;
    setConnection(t("game.reconnecting"), "reconnecting");
    setOnline(false);
    ui.timer = setTimeout(connect, wait);
  });
}

async function start() {
  translatePage();
  byId("language-box").append(languageSelector());
  byId("replay-start").addEventListener("click", () => replayTo(0));
  byId("replay-back").addEventListener("click", () => replayTo((ui.replay ? ui.replay.step : ui.live.step) - 1));
  byId("replay-forward").addEventListener("click", () => replayTo((ui.replay ? ui.replay.step : ui.live.step) + 1));
  byId("replay-end").addEventListener("click", () => replayTo(ui.live.step));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && ui.info) closeInfo();
  });
  byId("queue").addEventListener("scroll", cue, { passive: true });
  window.addEventListener("resize", () => {
    fitCards(byId("game"));
    cue();
    placeInfo();
    measureHead();
  });
  try {
    accept(await getJSON(`${base}${language}`, token));
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
