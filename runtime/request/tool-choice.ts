/**
 * The request's tool choice → the wire's form for it (the codec's `toolChoice` forms); a choice
 * the spec has no form for is dropped with a warning. Wires that say parallelToolCalls inside the
 * tool choice, or have a form for tools declared without a choice, go by `toolChoiceRules`: a
 * unit their modules supply (`codec.uses.toolChoiceRules`), so other bundles leave it out.
 */
import type { Codec, ToolChoiceRulesUnit } from '../contract/codec.js';
import type { Profile } from '../contract/profile.js';
import type { ChatRequest } from '../contract/unified-model.js';
import type { Warnings } from './warnings.js';
import { quote } from '../errors.js';

/** The form of the choice the request gives; `noParallel` for wires that say `parallelToolCalls: false` inside it. */
export const toolChoiceForm = (req: ChatRequest, p: Profile, c: Codec, w: Warnings, noParallel: true | undefined): unknown => {
  // A `when` the spec puts on its forms (tools declared), compiled: it has warned when it fails.
  if (c.toolChoice.when && !c.toolChoice.when(req, w)) return;
  const choice = req.toolChoice;
  const kind = typeof choice === 'object' && choice !== null ? 'named' : choice;
  if (kind !== 'auto' && kind !== 'none' && kind !== 'required' && kind !== 'named') {
    w.reject('toolChoice', `unknown tool choice ${quote(choice)}`);
  }
  const form = c.toolChoice[kind];
  return form ? form({ name: typeof choice === 'object' ? choice.name : undefined, noParallel }) : w.lacks('toolChoice', `"${kind}" tool choice`);
};

/** The tool choice of a wire with `params.parallelToolCalls: { carriedBy }` or an `unset` form. */
export const toolChoiceRules = (req: ChatRequest, p: Profile, c: Codec, w: Warnings): unknown => {
  const parallel = p.request.params.parallelToolCalls;
  const noParallel = parallel !== undefined && 'carriedBy' in parallel && req.parallelToolCalls === false ? true : undefined;
  if (req.toolChoice === undefined && !req.tools?.length) {
    // A wire that says parallelToolCalls inside its tool choice has nowhere to say it without tools.
    if (noParallel) w.drop('parallelToolCalls', `${p.name} says this inside the tool choice, and no tools are declared`);
    return undefined;
  }
  // The `unset` form: tools are declared and the request gives no choice.
  if (req.toolChoice === undefined) return c.toolChoice.unset?.({ name: undefined, noParallel });
  const form = toolChoiceForm(req, p, c, w, noParallel);
  // The choice was dropped (no tools declared, or no such form): the flag it would carry goes with it.
  if (form === undefined && noParallel) w.drop('parallelToolCalls', `${p.name} says this inside the tool choice, which was not sent`);
  return form;
};

toolChoiceRules satisfies ToolChoiceRulesUnit;
