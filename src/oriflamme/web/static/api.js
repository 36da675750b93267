// The JSON API the pages use: the same one documented for every client.

/** An answer from the server that is not a success, with its readable message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(url, options) {
  let response;
  try {
    response = await fetch(url, { cache: "no-store", ...options });
  } catch {
    throw new ApiError(0, "The server cannot be reached. Check your connection and try again.");
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const said = body && typeof body.error === "string" ? body.error : response.statusText;
    throw new ApiError(response.status, said || `the server answered ${response.status}`);
  }
  return body;
}

export function getJSON(url) {
  return call(url, { headers: { Accept: "application/json" } });
}

export function postJSON(url, data) {
  return call(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(data),
  });
}

/** A query string from pairs, leaving out null values: query({token: t, step: 3}). */
export function query(values) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== null && value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
