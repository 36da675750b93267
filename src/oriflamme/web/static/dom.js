// Building the page from data without ever parsing it as HTML: every text goes in
// through textContent, so a card name or an error message can never become markup.

/**
 * An element: h("button", {class: "x", testid: "answer", onclick: f}, "text", child).
 * Attributes: class, testid (data-testid), text, data (an object for dataset),
 * on* (event listeners); false, null and undefined leave an attribute out.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") element.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (name === "testid") element.dataset.testid = value;
    else if (name === "text") element.textContent = value;
    else if (name === "data") Object.assign(element.dataset, value);
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/** Appends children: nodes, strings (as text), arrays of them; null and false are skipped. */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Replaces everything inside `element` with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/** The element with this id, which the page's HTML always has. */
export function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element;
}
