/**
 * A wire value matched against a request template (the spec's JSON with `$slot` strings): the
 * values its slots stand for, and how well the value fits. Forward, a template leaves out keys
 * whose slot is unset, so an absent key fits any slot; a fit is judged by what it accounts for.
 */
import type { TemplateData } from '../contract/serve-codec.js';

export interface Match {
  slots: Record<string, unknown>;
  /** Wire keys no template key accounts for (a weaker fit). */
  extra: number;
  /** Where those keys are, relative to the matched value (`cache_control`, `source.detail`): what a reader of the fit leaves unread. */
  unread: string[];
  /** Literal values the template required and the wire had (a more specific fit). */
  literals: number;
  /** Objects a slot took whole where another form may spell out their fields (a looser fit). */
  loose: number;
}

const SLOT = /^\$([A-Za-z_][A-Za-z0-9_.]*)(?:\|(.*))?$/s;

export function matchTemplate(t: TemplateData, v: unknown): Match | undefined {
  if (typeof t === 'string') return matchString(t, v);
  if (Array.isArray(t)) return matchArray(t, v);
  if (t !== null && typeof t === 'object') return matchObject(t as Record<string, unknown>, v);
  return v === t ? { slots: {}, extra: 0, literals: 1, loose: 0, unread: [] } : undefined;
}

function matchString(t: string, v: unknown): Match | undefined {
  if (t === '$null') return v === null ? { slots: {}, extra: 0, literals: 1, loose: 0, unread: [] } : undefined;
  if (t.startsWith('$$')) return v === t.slice(1) ? { slots: {}, extra: 0, literals: 1, loose: 0, unread: [] } : undefined;
  if (t.includes('${')) return matchConcat(t, v);
  const slot = SLOT.exec(t);
  if (!slot) return v === t ? { slots: {}, extra: 0, literals: 1, loose: 0, unread: [] } : undefined;
  if (v === undefined) return none();
  // The fallback is what the forward direction writes for an unset value: it reads back as unset.
  if (slot[2] !== undefined && JSON.stringify(v) === slot[2]) return none();
  return { slots: { [slot[1]!]: v }, extra: 0, literals: 0, loose: v !== null && typeof v === 'object' && !Array.isArray(v) ? 1 : 0, unread: [] };
}

/** `only:${name}`: literal text around slots; each slot takes the shortest text that lets the rest fit. */
function matchConcat(t: string, v: unknown): Match | undefined {
  if (v === undefined) return none();
  if (typeof v !== 'string') return undefined;
  const names: string[] = [];
  let pattern = '';
  let rest = t;
  while (rest.length) {
    const at = rest.indexOf('${');
    if (at < 0) {
      pattern += escape(rest);
      break;
    }
    if (at > 0 && rest[at - 1] === '$') {
      pattern += escape(rest.slice(0, at - 1) + '${');
      rest = rest.slice(at + 2);
      continue;
    }
    const end = rest.indexOf('}', at);
    pattern += `${escape(rest.slice(0, at))}([\\s\\S]*?)`;
    names.push(rest.slice(at + 2, end));
    rest = rest.slice(end + 1);
  }
  const m = new RegExp(`^${pattern}$`).exec(v);
  if (!m) return undefined;
  return { slots: Object.fromEntries(names.map((n, i) => [n, m[i + 1]])), extra: 0, literals: 1, loose: 0, unread: [] };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Items with `$when` may have been left out; the others must be there, in order. */
function matchArray(t: unknown[], v: unknown): Match | undefined {
  if (v === undefined) return hasLiteral(t) ? undefined : none();
  if (!Array.isArray(v)) return undefined;
  const optional = t.map((item) => item !== null && typeof item === 'object' && !Array.isArray(item) && '$when' in item);
  const go = (ti: number, vi: number): Match | undefined => {
    if (ti === t.length) return vi === v.length ? none() : undefined;
    let best: Match | undefined;
    if (vi < v.length) {
      const here = matchTemplate(t[ti], v[vi]);
      const rest = here && go(ti + 1, vi + 1);
      if (here && rest) best = merge(within(here, `[${vi}]`), rest);
    }
    if (optional[ti]) {
      const skip = go(ti + 1, vi);
      if (skip && (!best || better(skip, best))) best = skip;
    }
    return best;
  };
  return go(0, 0);
}

function matchObject(t: Record<string, unknown>, v: unknown): Match | undefined {
  if (v === undefined) return '$when' in t || !hasLiteral(t) ? none() : undefined;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  let out = none();
  for (const k in t) {
    if (k === '$when' || k === '$spread') continue;
    const m = matchTemplate(t[k], o[k]);
    if (!m) return undefined;
    out = merge(out, within(m, `.${k}`));
  }
  for (const k in o) {
    if (k in t || o[k] === undefined) continue;
    out.extra++;
    // A null or an empty list or object says nothing: not worth a warning when left unread.
    if (!isEmpty(o[k])) out.unread.push(`.${k}`);
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  return v === null || (typeof v === 'object' && Object.keys(v as object).length === 0);
}

/** A template that writes a literal whatever its slots hold (so an absent value does not fit it). */
function hasLiteral(t: unknown): boolean {
  if (typeof t === 'string') return !t.startsWith('$') || t.startsWith('$$') || t === '$null';
  if (Array.isArray(t)) return t.some(hasLiteral);
  if (t !== null && typeof t === 'object') return !('$when' in t) && Object.entries(t).some(([k, x]) => k !== '$spread' && hasLiteral(x));
  return true;
}

function none(): Match {
  return { slots: {}, extra: 0, literals: 0, loose: 0, unread: [] };
}

function merge(a: Match, b: Match): Match {
  return { slots: { ...a.slots, ...b.slots }, extra: a.extra + b.extra, literals: a.literals + b.literals, loose: a.loose + b.loose, unread: [...a.unread, ...b.unread] };
}

/** A nested match's unread keys, as paths from the value around it. */
function within(m: Match, step: string): Match {
  if (m.unread.length) m.unread = m.unread.map((p) => step + p);
  return m;
}

/**
 * Fewer unaccounted keys, then more literals, then fewer objects taken whole (a form that spells
 * out `{ error: $text }` fits such an object better than one that takes any object as `$content`).
 */
export function better(a: Match, b: Match): boolean {
  return a.extra !== b.extra ? a.extra < b.extra : a.literals !== b.literals ? a.literals > b.literals : a.loose < b.loose;
}
