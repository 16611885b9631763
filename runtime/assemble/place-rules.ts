/**
 * An overlay's rule table, from its base's and its own (docs/spec-language.md#extends): the base's
 * rules in their order, a rule of the overlay's own in its base namesake's place, or before the
 * rule `before` names for it, or at the end. A reader runs the table's rules in its key order, so
 * an overlay's readers are its differences: no copy of its base's rules or of their order.
 */
/** A rule: the assembler, the payload, and the scope a reader hands the rules its overlay shares (runRules). */
type Rule = (a: never, payload: never, scope: never) => void;

export function placeRules<B extends Record<string, Rule>, T extends Record<string, Rule>>(base: B, before: Record<string, string>, own: T): Omit<B, keyof T> & T {
  // A rule `before` names is one of the base's the overlay keeps in place.
  const names = Object.keys(base).filter((n) => !(n in before));
  for (const n of [...Object.keys(before), ...Object.keys(own)]) {
    if (names.includes(n)) continue;
    const at = n in before ? names.indexOf(before[n]!) : -1;
    names.splice(at < 0 ? names.length : at, 0, n);
  }
  const out: Record<string, Rule> = {};
  for (const n of names) out[n] = own[n] ?? base[n]!;
  return out as Omit<B, keyof T> & T;
}

/**
 * A reader that runs every rule of a table, in its order (an overlay's codec readers). With
 * `scope`, each rule is also handed the part of the payload it names, read once per payload:
 * the rules an overlay shares between its readers read that part (the Chat family's
 * `choices.0.message` of a body, `choices.0.delta` of an event), so they are written once.
 */
export function runRules<P, S = never>(rules: Readonly<Record<string, (a: never, payload: P, scope: S) => void>>, scope?: (payload: P) => S): (a: never, payload: P) => void {
  const steps = Object.values(rules);
  if (!scope) {
    return (a, payload) => {
      for (let i = 0; i < steps.length; i++) steps[i]!(a, payload, undefined as S);
    };
  }
  return (a, payload) => {
    const s = scope(payload);
    for (let i = 0; i < steps.length; i++) steps[i]!(a, payload, s);
  };
}
