/**
 * Rule shorthand, expanded before anything checks the document: a rule named after an action
 * takes the action's value directly (`text: choices.0.delta.content`, `end: true`) or its
 * arguments with `when`/`each` beside them (`usage: { at: usage, merge: true }`). The schema,
 * the IR and the diagnostics then see one longhand form.
 */
import { didYouMean, type Diagnostic } from '../diagnostics.js';
import { ACTION_ARGS, ACTIONS, isAction, RULE_KEYS } from '../ir/actions.js';
import { escapePointer, positionOf, type ParsedSpec } from './parse-spec.js';

type Obj = Record<string, unknown>;

export function expandShorthand(spec: ParsedSpec): Diagnostic[] {
  const doc = spec.doc as Obj | undefined;
  if (!isObj(doc)) return [];
  const out: Diagnostic[] = [];
  // A YAML alias shares one object between places: expand it once (a second pass would wrap it again).
  const seen = new WeakSet<object>();
  const rules = (map: unknown, pointer: string): void => {
    if (!isObj(map) || seen.has(map)) return;
    seen.add(map);
    for (const [name, v] of Object.entries(map)) {
      const at = `${pointer}/${escapePointer(name)}`;
      if (v === null) continue;
      const named = isAction(name);
      if (!isObj(v)) {
        if (named) map[name] = { [name]: v };
        else {
          const hint = didYouMean(name, ACTIONS);
          out.push({
            code: 'rule-shape',
            file: spec.file,
            pointer: at,
            ...positionOf(spec, at, true),
            message: `"${name}" is not an action, so its rule needs an object (an action key, switch/cases, or rules)`,
            hint: `${hint ? `${hint} ` : ''}actions: ${ACTIONS.join(', ')}`,
          });
          // Reported here; the schema would only say the same again.
          delete map[name];
        }
        continue;
      }
      // A rule named after an action is that action, its arguments written directly: the same name
      // inside again (`text: { text: { start: true } }`) or another action inside would make the
      // rule's name mean two things (third edition; an argument named like its action takes a path).
      if (named) {
        const twice = isObj(v[name]) && ACTION_ARGS[name].length > 0;
        const other = Object.keys(v).find((k) => k !== name && isAction(k) && !ACTION_ARGS[name].includes(k));
        if (twice || other !== undefined) {
          const inner = twice ? Object.entries(v[name] as Obj).map(([k, x]) => `${k}: ${JSON.stringify(x)}`).join(', ') : '';
          out.push({
            code: 'rule-shape',
            file: spec.file,
            pointer: `${at}/${escapePointer(twice ? name : other!)}`,
            ...positionOf(spec, `${at}/${escapePointer(twice ? name : other!)}`, true),
            message: twice
              ? `the rule "${name}" names its action again inside: a rule named after an action takes the action's arguments directly`
              : `the rule "${name}" is named after an action but holds the action "${other}": name it for what it does`,
            hint: twice ? `write ${name}: { ${[...Object.keys(v).filter((k) => k !== name).map((k) => `${k}: …`), inner].filter(Boolean).join(', ')} }` : `rename the rule (e.g. ${other}Rule: { ${other}: … })`,
          });
          delete map[name];
          continue;
        }
      }
      // Longhand when the object names its action, or is a switch or group.
      const longhand = Object.keys(v).some(
        (k) => k === 'switch' || k === 'rules' || (isAction(k) && (!(named && ACTION_ARGS[name].includes(k)) || (k === name && isObj(v[k])))),
      );
      if (named && !longhand) {
        // The object is the action's arguments, beside the rule's own keys.
        const rule: Obj = {};
        const args: Obj = {};
        for (const [k, x] of Object.entries(v)) (k === 'when' || k === 'each' || k === 'before' ? rule : args)[k] = x;
        rule[name] = args;
        map[name] = rule;
      }
      const r = map[name] as Obj;
      for (const k of Object.keys(r)) {
        if ((RULE_KEYS as readonly string[]).includes(k) || isAction(k)) continue;
        const hint = didYouMean(k, [...ACTIONS, ...RULE_KEYS]);
        out.push({
          code: 'unknown-key',
          file: spec.file,
          pointer: `${at}/${escapePointer(k)}`,
          ...positionOf(spec, `${at}/${escapePointer(k)}`, true),
          message: `"${k}" is not an action or a rule key`,
          hint: `${hint ? `${hint} ` : ''}actions: ${ACTIONS.join(', ')}; rule keys: ${RULE_KEYS.join(', ')}`,
        });
        delete r[k];
      }
      if (isObj(r.cases)) for (const [value, sub] of Object.entries(r.cases)) rules(sub, `${at}/cases/${escapePointer(value)}`);
      rules(r.rules, `${at}/rules`);
    }
  };
  rules(doc.response, '/response');
  const on = isObj(doc.stream) ? (doc.stream as Obj).on : undefined;
  if (isObj(on)) for (const [event, map] of Object.entries(on)) rules(map, `/stream/on/${escapePointer(event)}`);
  return out;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
