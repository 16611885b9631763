/**
 * Provider-independent history work done before templates apply: system text collected (when
 * the spec places it in a field), images normalised, and tool names filled in from the call
 * they answer (Gemini sends results back by name).
 */
import type { ChatRequest, ContentPart, Message } from '../contract/unified-model.js';
import type { ContinuityUnit } from '../contract/codec.js';
import type { Continuity } from '../contract/profile.js';
import type { Warnings } from './warnings.js';
import { isArray } from '../wire/read-path.js';

export interface Conversation {
  /** Joined system text when placement is `field`; undefined when there is none. */
  system: string | undefined;
  messages: Message[];
  /** Position of each message in the request, for warnings. */
  origins: number[];
  /** Fields continuity rules add to the body; absent: none. */
  body?: Record<string, unknown> | undefined;
  /** The request to build from: continuity rules may have taken fields out of it. */
  request: ChatRequest;
  /** Body fields carried from the latest turn of this provider (continuity `carry`), placed; absent: none. */
  carried?: Record<string, unknown> | undefined;
}

export const prepareConversation = (
  req: ChatRequest,
  placement: 'message' | 'field',
  join: string,
  continuity: Continuity,
  w: Warnings,
  rules?: ContinuityUnit,
): Conversation => {
  const systemTexts: string[] = [];
  const messages: Message[] = [];
  const origins: number[] = [];
  const names = new Map<string, string>();
  // Tool-call ids must be unique in a request (Anthropic rejects repeats); ids made up for wires
  // without them (Gemini) can repeat across turns, so a repeat is renamed with its results.
  const usedIds = new Set<string>();
  let renamed = new Map<string, string>();
  if (req.system !== undefined && req.system !== '') {
    if (placement === 'field') systemTexts.push(req.system);
    else {
      messages.push({ role: 'system', content: req.system });
      origins.push(-1);
    }
  }
  req.messages.forEach((m, i) => {
    if (m.role === 'system' && placement === 'field') {
      systemTexts.push(m.content);
      return;
    }
    let out: Message = m;
    if (m.role === 'assistant' && m.toolCalls?.length) {
      renamed = new Map();
      const calls = m.toolCalls.map((c) => {
        let id = c.id;
        for (let n = 2; usedIds.has(id); n++) id = `${c.id}_${n}`;
        usedIds.add(id);
        names.set(id, c.name);
        if (id === c.id) return c;
        renamed.set(c.id, id);
        return { ...c, id };
      });
      if (renamed.size) out = { ...m, toolCalls: calls };
    }
    if (m.role === 'tool') {
      const id = renamed.get(m.toolCallId) ?? m.toolCallId;
      if (id !== m.toolCallId) out = { ...m, toolCallId: id };
      if (m.toolName === undefined && names.has(id)) out = { ...out, toolName: names.get(id) } as Message;
    }
    if ((m.role === 'user' || m.role === 'tool') && isArray(m.content)) out = { ...out, content: m.content.map(normaliseImage) } as Message;
    messages.push(out);
    origins.push(i);
  });
  // Without a unit the history goes as it is: the templates carry nothing another provider made.
  const kept = rules ? rules(messages, origins, req, continuity, w) : { messages, request: req };
  return { system: systemTexts.length ? systemTexts.join(join) : undefined, messages: kept.messages, origins, body: kept.body, request: kept.request, carried: kept.carried };
};

/** Base64 prefixes of the image formats providers accept, for data given without a mediaType. */
const SIGNATURES: Array<[string, string]> = [
  ['iVBORw0KGgo', 'png'],
  ['/9j/', 'jpeg'],
  ['R0lGOD', 'gif'],
  ['UklGR', 'webp'],
];

/**
 * `data:` URLs become data + mediaType, so specs that take base64 only can carry them; base64
 * data without a mediaType gets one from its first bytes when the format is recognisable.
 */
const normaliseImage = (p: ContentPart): ContentPart => {
  if (p.type !== 'image') return p;
  const { data, url } = p;
  if (data !== undefined) {
    const hit = p.mediaType === undefined && SIGNATURES.find(([prefix]) => data.startsWith(prefix));
    return hit ? { ...p, mediaType: `image/${hit[1]}` } : p;
  }
  if (!url?.startsWith('data:')) return p;
  const comma = url.indexOf(',');
  const header = url.slice(5, comma);
  if (comma < 0 || !header.endsWith(';base64')) return p;
  return { type: 'image', data: url.slice(comma + 1), mediaType: p.mediaType ?? header.slice(0, -7) };
};
