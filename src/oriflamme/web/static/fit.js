// Fitting words into the cards' faces, and saying that the queue goes on past the edge.
// A card's name never breaks inside a word ("Impersonatio-n"): it is set smaller until
// its longest word fits its width. A card's text is set smaller until it fits the face;
// one that still does not is cut with a visible "…", and the whole text is a tap away.

const NAME_SMALLEST = 9; // px
const BODY_SMALLEST = 8; // px

function shrink(element, smallest, fits) {
  element.style.fontSize = "";
  let size = parseFloat(getComputedStyle(element).fontSize);
  while (!fits(element) && size > smallest) {
    size = Math.max(smallest, size - 0.5);
    element.style.fontSize = `${size}px`;
  }
  return fits(element);
}

const wide = (element) => element.scrollWidth <= element.clientWidth;
const tall = (element) => element.scrollHeight <= element.clientHeight + 1;

/** Fits every card name and card text inside `root` (those on the screen only: a
 * hidden one has no size to fit). */
export function fitCards(root) {
  for (const name of root.querySelectorAll(".card-name")) {
    if (!name.clientWidth) continue;
    if (!shrink(name, NAME_SMALLEST, wide)) name.classList.add("squeezed");
  }
  for (const body of root.querySelectorAll(".card-body")) {
    if (!body.clientHeight) continue;
    body.classList.remove("clipped");
    if (!shrink(body, BODY_SMALLEST, tall)) body.classList.add("clipped");
  }
}

/**
 * Shows how many stacks of the queue are out of sight (the queue scrolls sideways):
 * `more` for the later positions past its edge, `before` for the earlier ones, each
 * on its own side (a queue resolving leftward has its later positions on the left).
 */
export function queueCue(queue, before, more, words) {
  const box = queue.getBoundingClientRect();
  let left = 0;
  let right = 0;
  for (const stack of queue.querySelectorAll(".stack")) {
    const rect = stack.getBoundingClientRect();
    if (rect.left + rect.width / 2 < box.left) left += 1;
    else if (rect.right - rect.width / 2 > box.right) right += 1;
  }
  const leftward = queue.classList.contains("leftward");
  const later = leftward ? left : right;
  const earlier = leftward ? right : left;
  const overflowing = queue.scrollWidth > queue.clientWidth + 1;
  const wrap = queue.parentElement;
  wrap.classList.toggle("overflowing", overflowing);
  wrap.classList.toggle("leftward", leftward);
  wrap.classList.toggle("at-start", left === 0);
  wrap.classList.toggle("at-end", right === 0);
  more.hidden = !overflowing || later === 0;
  before.hidden = !overflowing || earlier === 0;
  more.textContent = leftward ? `← ${words.more(later)}` : `${words.more(later)} →`;
  before.textContent = leftward ? `${words.before(earlier)} →` : `← ${words.before(earlier)}`;
  more.dataset.count = String(later);
  before.dataset.count = String(earlier);
}
