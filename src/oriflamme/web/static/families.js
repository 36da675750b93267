// Each family's colour comes from the style sheet (.fam-red, ...): a family the sheet
// does not know gets a neutral one.

const KNOWN = new Set(["red", "blue", "green", "yellow", "black"]);

/** The CSS class that colours things of `family`. */
export function familyClass(family) {
  return KNOWN.has(family) ? `fam-${family}` : "fam-other";
}
