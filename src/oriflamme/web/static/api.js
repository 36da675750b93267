// The JSON API the pages use: the same one documented for every client.
// A token only ever travels in the Authorization header: a URL is kept by proxies,
// access logs and the browser's history, a header is not.

import { t } from "./words.js";

/** An answer from the server that is not a success, with its readable message. */
export class ApiError extends Error {
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter; // seconds to wait, from a 429's Retry-After
  }
}

function headers(token, extra = {}) {
  const found = { Accept: "application/json", ...extra };
  if (token) found.Authorization = `Bearer ${token}`;
  return found;
}

function seconds(text) {
  const value = Number(text);
  return text !== null && Number.isFinite(value) && value >= 0 ? Math.ceil(value) : null;
}

async function call(url, options) {
  let response;
  try {
    response = await fetch(url, { cache: "no-store", ...options });
  } catch {
    throw new ApiError(0, t("api.unreachable"));
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const said = body && typeof body.error === "string" ? body.error : response.statusText;
    throw new ApiError(
      response.status,
      said || `the server answered ${response.status}`,
      seconds(response.headers.get("Retry-After")),
    );
  }
  return body;
}

/** GET `url`, as the holder of `token` (none: as anyone, a spectator). */
export function getJSON(url, token = null) {
  return call(url, { headers: headers(token) });
}

/** POST `data` to `url`, as the holder of `token`. */
export function postJSON(url, data, token = null) {
  return call(url, {
    method: "POST",
    headers: headers(token, { "Content-Type": "application/json" }),
    body: JSON.stringify(data),
  });
}

/** A query string from pairs, leaving out null values: query({step: 3}). */
export function query(values) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== null && value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The token in a page's fragment (#token=...), which the browser never sends; null if none. */
export function fragmentToken() {
  return new URLSearchParams(location.hash.slice(1)).get("token") || null;
}
