/**
 * A client's wire request → the unified request, by matching it against the spec's own request
 * templates (the request direction read backwards; docs/serving.md#reading-requests). A body the
 * spec does not accept is a RequestError naming the wire path; what the wire cannot say (an
 * error flag Chat Completions does not carry, ids Gemini does not send) comes back as documented.
 */
import type { ProviderAdapter } from '../contract/adapter.js';
import { RequestError } from '../errors.js';
import type { ParamRule, PartsProfile, WirePath } from '../contract/profile.js';
import { PARAM_FIELDS, writeParam } from '../contract/param-fields.js';
import type {
  AssistantMessage,
  ChatRequest,
  ContentPart,
  FunctionToolSpec,
  Message,
  ResponseFormat,
  ResponsePart,
  ThinkingPart,
  ToolCall,
  ToolChoice,
  ToolSpec,
  UserMessage,
} from '../contract/unified-model.js';
import { isObject, readPath } from '../wire/read-path.js';
import { pathMatches, pathPattern } from './endpoint-path.js';
import { better, matchTemplate, type Match } from './match-template.js';
import type { AcceptedForms, RequestTemplates, ServeCodec, TemplateData } from '../contract/serve-codec.js';

export interface DecodedRequest {
  request: ChatRequest;
  /** The client asked for a stream (the stream body fields, or the stream path). */
  stream: boolean;
  /**
   * Wire paths inside messages, parts, blocks, tools and the system field that no form reads
   * (`messages[0].content[1].cache_control`): not in the unified request, so never sent on.
   * (Unread top-level fields are `providerOptions`.)
   */
  unread: string[];
}

type Slots = Record<string, unknown>;
/** `inner`: what nested readers left unread while this candidate was read. */
type Candidate<T> = { match: Match; value: T; order: number; inner?: string[] };

/** What the request being read leaves unread (decoding is synchronous: one request at a time). */
let unread: string[] = [];

// Specific forms first: a tool result before the user turn it may travel in; equal fits keep this order.
const ROLE_ORDER = ['tool', 'toolError', 'approval', 'system', 'user', 'assistant'] as const;
const BLOCK_ORDER = ['toolCall', 'redactedThinking', 'summaryThinking', 'thinking', 'text'] as const;

export function decodeRequest(adapter: ProviderAdapter, serve: ServeCodec, body: unknown, path = ''): DecodedRequest {
  const t = serve.request;
  const id = adapter.id;
  if (!t) throw new RequestError(id, 'body', `spec "${id}" has no request templates to read a request with`);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new RequestError(id, 'body', 'expected a JSON object');
  const b = body as Record<string, unknown>;
  const rq = adapter.profile.request;
  const read = new Reader(b);
  const out: ChatRequest = { messages: [] };
  unread = [];

  const model = rq.model ? read.take(rq.model) : modelFromPath(adapter.endpoint.path, adapter.endpoint.streamPath, path);
  if (model !== undefined) {
    if (typeof model !== 'string') throw new RequestError(id, dotted(rq.model ?? ['model']), 'expected a string');
    out.model = model;
  }

  const accept = serve.accept;
  const system: string[] = [];
  if (rq.system.placement === 'field' && rq.system.to) {
    const v = read.take(rq.system.to);
    // An empty list of system blocks says nothing (a plain empty string is kept as sent).
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) system.push(systemText(id, t.system, accept?.system, v, dotted(rq.system.to), rq.system.join));
  }

  const wire = read.take(rq.messages.to);
  const where = dotted(rq.messages.to);
  const messages = Array.isArray(wire) ? decodeMessages(adapter, t, accept, wire, where, serve.itemId) : oneMessage(id, accept, wire, where);
  for (const m of messages) if (m.role === 'system') system.push(m.content);
  out.messages = messages.filter((m) => m.role !== 'system');
  if (system.length) out.system = system.join(rq.system.join);

  if (rq.tools && t.tools) {
    const v = read.take(rq.tools.to);
    if (v !== undefined) {
      const tools = decodeTools(adapter, t.tools, accept?.tools, v, dotted(rq.tools.to));
      if (tools.length) out.tools = tools;
    }
  }
  const noParallel = { value: false };
  if (rq.toolChoice && t.toolChoice) {
    const v = read.take(rq.toolChoice.to);
    if (v !== undefined) {
      const choice = decodeToolChoice(id, t.toolChoice, v, dotted(rq.toolChoice.to), noParallel);
      if (choice !== undefined) out.toolChoice = choice;
    }
  }
  if (rq.responseFormat && t.responseFormat) {
    const to = rq.responseFormat.to;
    const v = read.peek(to);
    // Gemini writes the form into generationConfig beside the params: no form there is no format.
    const shared = Object.values(rq.params).some((r) => r !== undefined && 'to' in r && dotted(r.to).startsWith(`${dotted(to)}.`));
    if (v !== undefined) {
      const f = decodeResponseFormat(id, t.responseFormat, v, dotted(to), shared);
      if (f) {
        out.responseFormat = f.format;
        for (const k of f.keys) read.take(k === undefined ? to : [...to, k]);
      }
    }
  }
  decodeParams(adapter, t, read, out);
  if (noParallel.value) out.parallelToolCalls = false;

  // A stream: the stream path, or the flag a stream call sets (`stream: true`; a wire whose
  // blocking calls say so, as Ollama's `stream: false`, streams unless they do).
  const streamPath = adapter.endpoint.streamPath;
  const same = (k: string, v: unknown) => JSON.stringify(b[k]) === JSON.stringify(v);
  const forced = Object.entries(rq.streamBody ?? {});
  const blocking = Object.entries(rq.blockingBody ?? {});
  const stream =
    (streamPath !== undefined && pathMatches(streamPath, path)) ||
    (blocking.length ? !blocking.every(([k, v]) => same(k, v)) : forced.some(([k, v]) => typeof v === 'boolean' && same(k, v)));
  // Those fields are the call's kind, not the caller's.
  for (const [k] of [...forced, ...blocking]) read.take([k]);
  const rest = read.rest();
  if (rest) out.providerOptions = rest;
  return { request: out, stream, unread };
}

// ---------------------------------------------------------------------------------------------
// Messages

/** The system field: the spec's template (or a plain string), or a form it accepts. */
function systemText(id: string, own: TemplateData | undefined, accepted: TemplateData | undefined, v: unknown, at: string, join: string): string {
  if (own === undefined && typeof v === 'string') return v;
  for (const template of forms(own ?? '$text', accepted)) {
    // A one-item list stands for any number of items: their texts are joined.
    if (isOneItemList(template) && Array.isArray(v)) {
      const matches = v.map((x) => matchTemplate(template[0], x));
      const texts = matches.map((m) => m?.slots.text);
      if (!texts.length || !texts.every((x) => typeof x === 'string')) continue;
      matches.forEach((m, i) => noteUnread(m!, `${at}[${i}]`));
      return texts.join(join);
    }
    const m = matchTemplate(template, v);
    const text = m?.slots.text;
    if (typeof text === 'string') return noteUnread(m!, at), text;
  }
  throw new RequestError(id, at, 'does not have the form this provider writes');
}

/** A messages value that is not a list: one user message, in a form the spec accepts (Responses' string input). */
function oneMessage(id: string, accept: AcceptedForms | undefined, v: unknown, at: string): Message[] {
  for (const template of forms(undefined, accept?.messages)) {
    const text = matchTemplate(template, v)?.slots.text;
    if (typeof text === 'string') return [{ role: 'user', content: text }];
  }
  throw new RequestError(id, at, 'expected a list of messages');
}

function decodeMessages(adapter: ProviderAdapter, t: RequestTemplates, accept: AcceptedForms | undefined, wire: unknown[], where: string, itemKey?: string): Message[] {
  const id = adapter.id;
  const merge = adapter.profile.request.messages.merge;
  const kinds = adapter.profile.parts?.kinds;
  const out: Message[] = [];
  let assistant: { message: AssistantMessage; blocks: number; parts: ResponsePart[] } | undefined;
  wire.forEach((m, i) => {
    const at = `${where}[${i}]`;
    // A merged wire message may hold several unified ones: unless it reads as one, each element
    // of the merged field is read on its own, and pieces of one turn are joined again.
    const whole = bestRole(id, t, accept, m, at, kinds);
    const split = !whole && merge && isObject(m) && Array.isArray(m[merge.field]) && (m[merge.field] as unknown[]).length > 1;
    const pieces = split ? (m[merge.field] as unknown[]).map((e) => ({ ...m, [merge.field]: [e] })) : [m];
    for (const piece of pieces) {
      const role = piece === m ? whole : bestRole(id, t, accept, piece, at, kinds);
      if (role === undefined && adapter.profile.request.messages.spread) {
        // An assistant turn spread over top-level items: each item is one block, or a call of a
        // client-run tool kind (the kind table's tool-call items) with its item.
        // Another item of the kind table (a hosted-tool item) goes back as it came: the turn then
        // lists its parts in order, so it is written from them.
        const block = kindCall(adapter, piece) ?? kindItem(adapter, piece) ?? bestBlock(id, t, piece, at);
        if (!assistant) out.push((assistant = { message: { role: 'assistant', content: null }, blocks: 0, parts: [] }).message);
        // After reasoning, a call keeps its item id (Responses fc_…): the item reasoning leads to goes back with it.
        if (block.kind === 'call' && itemKey && assistant.message.thinking) keepItemId(block.call, t.blocks.toolCall, piece, itemKey, at);
        addBlock(assistant.message, block);
        assistant.parts.push(partOf(block));
        // A message item's id (Responses msg_…) lives in the parts only: after reasoning, the turn is written
        // from them too, as the item reasoning leads to goes back with its id (docs/wire-facts.md#openai-responses-item-rules).
        if (block.kind === 'item' || (block.kind === 'text' && block.id !== undefined && assistant.message.thinking)) assistant.message.parts = assistant.parts;
        continue;
      }
      if (role === undefined) throw new RequestError(id, at, `matches no message form of ${adapter.profile.name} (${Object.keys(t.roles).join(', ')})`);
      assistant = undefined;
      const prev = out[out.length - 1];
      // Pieces of one merged turn come back as one turn.
      if (piece !== pieces[0] && prev?.role === role.role && (role.role === 'user' || role.role === 'assistant')) {
        joinInto(prev as UserMessage | AssistantMessage, role as UserMessage | AssistantMessage);
        continue;
      }
      out.push(role);
    }
  });
  for (const m of out) if (m.role === 'assistant' && m.content === '') m.content = null;
  // A turn holding this wire's own items came from it: elsewhere they are left out, with a warning.
  for (const m of out) if (m.role === 'assistant' && (m.parts || m.toolCalls?.some((c) => c.wire !== undefined))) m.origin = { provider: id };
  nameCalls(out);
  return out;
}

function bestRole(id: string, t: RequestTemplates, accept: AcceptedForms | undefined, m: unknown, at: string, kinds?: Kinds): Message | undefined {
  const found: Array<Candidate<Message>> = [];
  ROLE_ORDER.forEach((role, order) => {
    for (const template of forms(t.roles[role], accept?.roles?.[role])) {
      // A role whose template is a block list (Responses' assistant) is read item by item instead.
      if (template === '$blocks') continue;
      const match = matchTemplate(template, m);
      if (!match) continue;
      // A form whose content is not there while the message has keys it does not account for is not this form.
      if (match.extra > 0 && (role === 'tool' || role === 'toolError' || role === 'user') && ['content', 'parts', 'text', 'images', 'output', 'plainText'].every((k) => match.slots[k] === undefined)) continue;
      const mark = unread.length;
      const value = tryDecode(() => roleMessage(id, t, accept, role, match.slots, at, kinds));
      const inner = unread.splice(mark);
      if (value) found.push({ match, value: whenFacts(template, value), order, inner });
    }
  });
  return pickRead(found, at);
}

function roleMessage(id: string, t: RequestTemplates, accept: AcceptedForms | undefined, role: (typeof ROLE_ORDER)[number], s: Slots, at: string, kinds?: Kinds): Message {
  switch (role) {
    case 'system':
      return { role: 'system', content: str(id, s.text ?? '', at) };
    case 'user': {
      const m: UserMessage = { role: 'user', content: userContent(id, t, accept, s, at) };
      if (s.name !== undefined) m.name = str(id, s.name, `${at}.name`);
      return m;
    }
    case 'assistant':
      return assistantFrom(id, t, s, at, kinds, accept);
    case 'tool':
    case 'toolError': {
      // A result the wire holds as an object (Gemini's `response`) is its JSON text.
      // So is a kind's output value (a shell call's output list, a screenshot).
      if (s.output !== undefined && typeof s.output !== 'string') s.output = JSON.stringify(s.output);
      if (s.content === undefined && s.text === undefined) s.text = s.plainText ?? s.output;
      for (const k of ['content', 'text'] as const) if (isObject(s[k])) s[k] = JSON.stringify(s[k]);
      const m: Message = { role: 'tool', toolCallId: s.toolCallId === undefined ? '' : str(id, s.toolCallId, at), content: userContent(id, t, accept, s, at) };
      if (s.toolName !== undefined) m.toolName = str(id, s.toolName, at);
      if (role === 'toolError' || s.isError === true) m.isError = true;
      return m;
    }
    case 'approval': {
      const m: Message = { role: 'approval', requestId: str(id, s.requestId, at), approve: s.approve === true };
      if (s.reason !== undefined) m.reason = str(id, s.reason, at);
      return m;
    }
  }
}

/** `$content`, `$parts`, `$text` or `$images`: a string, or parts read with the part templates. */
function userContent(id: string, t: RequestTemplates, accept: AcceptedForms | undefined, s: Slots, at: string): string | ContentPart[] {
  const v = s.content ?? s.parts ?? s.text;
  const images = Array.isArray(s.images) ? s.images.map((data): ContentPart => ({ type: 'image', data: str(id, data, at) })) : [];
  if (typeof v === 'string') return images.length ? [...(v ? [{ type: 'text' as const, text: v }] : []), ...images] : v;
  if (v === undefined) return images.length ? images : '';
  if (!Array.isArray(v)) throw new RequestError(id, at, 'content must be a string or a list of parts');
  // Named by the slot that read the list: `content` (most wires) or `parts` (Gemini), as the wire's key.
  const key = s.content !== undefined ? 'content' : 'parts';
  return [...v.map((p, i) => contentPart(id, t, accept, p, `${at}.${key}[${i}]`)), ...images];
}

function contentPart(id: string, t: RequestTemplates, accept: AcceptedForms | undefined, p: unknown, at: string): ContentPart {
  const found: Array<Candidate<ContentPart>> = [];
  (['text', 'imageUrl', 'imageData'] as const).forEach((kind, order) => {
    for (const template of forms(t.parts[kind], accept?.parts?.[kind])) {
      const match = matchTemplate(template, p);
      if (!match) continue;
      const s = match.slots;
      let value: ContentPart | undefined;
      if (kind === 'text') value = typeof s.text === 'string' ? { type: 'text', text: s.text } : undefined;
      else if (kind === 'imageUrl') value = typeof s.url === 'string' && !s.url.startsWith('data:') ? image({ url: s.url }, s.mediaType) : undefined;
      else value = imageData(s);
      if (value && isCacheControl(s.cacheControl)) value.cacheControl = s.cacheControl;
      if (value) found.push({ match, value, order });
    }
  });
  const part = pickRead(found, at);
  if (!part) throw new RequestError(id, at, 'matches no content part form (text, image)');
  return part;
}

function image(base: { url?: string; data?: string }, mediaType: unknown): ContentPart {
  return typeof mediaType === 'string' ? { type: 'image', ...base, mediaType } : { type: 'image', ...base };
}

/** `$data` with `$mediaType` or `$mediaSubtype`, or a `$dataUrl`. */
function imageData(s: Slots): ContentPart | undefined {
  if (typeof s.dataUrl === 'string') {
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(s.dataUrl);
    return m ? { type: 'image', data: m[2]!, mediaType: m[1]! } : undefined;
  }
  if (typeof s.data !== 'string') return undefined;
  const mediaType = typeof s.mediaType === 'string' ? s.mediaType : typeof s.mediaSubtype === 'string' ? `image/${s.mediaSubtype}` : undefined;
  return image({ data: s.data }, mediaType);
}

function assistantFrom(id: string, t: RequestTemplates, s: Slots, at: string, kinds?: Kinds, accept?: AcceptedForms): AssistantMessage {
  const m: AssistantMessage = { role: 'assistant', content: null };
  if (s.text != null && typeof s.text !== 'string') throw new RequestError(id, at, 'the text must be a string');
  if (typeof s.text === 'string') m.content = s.text;
  if (typeof s.thinkingText === 'string' && s.thinkingText) m.thinking = [{ text: s.thinkingText }];
  const parts: ResponsePart[] = [];
  let carried = false;
  for (const name of ['thinking', 'blocks', 'toolCalls'] as const) {
    const list = s[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new RequestError(id, at, `${name} must be a list`);
    list.forEach((b, i) => {
      const where = `${at}.${name}[${i}]`;
      let block: Block;
      try {
        block = bestBlock(id, t, b, where);
      } catch (e) {
        // A block this provider returns and takes back as it came (server-tool calls and results,
        // compaction, code and its results): kept in its place, so the same provider gets it back.
        const kind = keptKind(b, kinds, accept);
        if (kind === undefined) throw e;
        carried = true;
        parts.push({ type: 'opaque', kind, value: b, wire: b });
        return;
      }
      addBlock(m, block);
      parts.push(partOf(block));
    });
  }
  if (carried) m.parts = parts;
  return m;
}

type Kinds = NonNullable<PartsProfile['kinds']>;

/**
 * The kind of an assistant block the wire takes back as it came: its `type` names a kind of the
 * kind table that goes back (Anthropic), or it has one of the spec's accepted block forms
 * (`serve.accept.blocks`, Gemini's code parts), a form that reads something from it.
 */
function keptKind(b: unknown, kinds: Kinds | undefined, accept: AcceptedForms | undefined): string | undefined {
  if (isObject(b) && typeof b.type === 'string' && kinds && Object.hasOwn(kinds, b.type) && kinds[b.type]!.echo !== false) return b.type;
  for (const [name, accepted] of Object.entries(accept?.blocks ?? {})) {
    for (const template of forms(undefined, accepted)) {
      const m = matchTemplate(template, b);
      // An absent key fits any slot: the form must have found what it names.
      if (m && (m.literals > 0 || Object.values(m.slots).some((v) => v !== undefined))) return name;
    }
  }
  return undefined;
}
type Block = { kind: 'text'; text: string; id?: string } | { kind: 'thinking'; part: ThinkingPart } | { kind: 'call'; call: ToolCall } | { kind: 'item'; part: ResponsePart };

/** A block as a part of the turn (`parts`), in its place. */
function partOf(b: Block): ResponsePart {
  switch (b.kind) {
    case 'text':
      return b.id === undefined ? { type: 'text', text: b.text } : { type: 'text', text: b.text, id: b.id };
    case 'thinking':
      return { type: 'thinking', ...b.part };
    case 'call':
      return { type: 'tool-call', call: b.call };
    case 'item':
      return b.part;
  }
}

/** An input item of a kind the kind table keeps to send back (a hosted-tool item): itself, as a part. */
function kindItem(adapter: ProviderAdapter, item: unknown): Block | undefined {
  const kinds = adapter.profile.parts?.kinds;
  const type = isObject(item) ? item.type : undefined;
  // Calls (a function call read by its template, a client-run call by kindCall) are not such items.
  if (!kinds || typeof type !== 'string' || !Object.hasOwn(kinds, type) || !kinds[type]!.echo || kinds[type]!.parts[0]?.part === 'tool-call') return undefined;
  return { kind: 'item', part: { type: 'opaque', kind: type, value: item, wire: item } };
}


function bestBlock(id: string, t: RequestTemplates, b: unknown, at: string): Block {
  const found: Array<Candidate<Block>> = [];
  BLOCK_ORDER.forEach((kind, order) => {
    const template = t.blocks[kind];
    if (template === undefined) return;
    const match = matchTemplate(template, b);
    if (!match) return;
    const value = blockFrom(kind, match.slots);
    if (value) found.push({ match, value, order });
  });
  const block = pickRead(found, at);
  if (!block) throw new RequestError(id, at, `matches no assistant block form (${Object.keys(t.blocks).join(', ')})`);
  return block;
}

function blockFrom(kind: (typeof BLOCK_ORDER)[number], s: Slots): Block | undefined {
  const opt = (k: 'signature' | 'id' | 'format'): Partial<ThinkingPart> => (typeof s[k] === 'string' ? { [k]: s[k] } : {});
  switch (kind) {
    case 'text':
      // A message item's id (Responses msg_…) is kept for the turn's parts.
      return typeof s.text === 'string' ? (typeof s.id === 'string' ? { kind: 'text', text: s.text, id: s.id } : { kind: 'text', text: s.text }) : undefined;
    case 'thinking':
    case 'summaryThinking':
      return typeof s.text === 'string' || typeof s.signature === 'string'
        ? { kind: 'thinking', part: { text: typeof s.text === 'string' ? s.text : '', ...opt('signature'), ...opt('id'), ...opt('format'), ...(kind === 'summaryThinking' ? { summary: true as const } : {}) } }
        : undefined;
    case 'redactedThinking':
      return typeof s.data === 'string' ? { kind: 'thinking', part: { text: '', redacted: s.data, ...opt('id'), ...opt('format') } } : undefined;
    case 'toolCall': {
      if (typeof s.name !== 'string') return undefined;
      const args = typeof s.arguments === 'string' ? s.arguments : JSON.stringify(s.argumentsObject ?? {});
      const call: ToolCall = { id: typeof s.id === 'string' ? s.id : '', name: s.name, arguments: args };
      if (typeof s.signature === 'string') call.signature = s.signature;
      return { kind: 'call', call };
    }
  }
}

/**
 * The call's item as it goes back (`wire`): the fields its form writes and its id, nothing else the
 * caller added (an SDK's parsed arguments, a status); the id is then read, not left over.
 */
function keepItemId(call: ToolCall, template: unknown, item: unknown, itemKey: string, at: string): void {
  if (!isObject(item) || typeof item[itemKey] !== 'string' || !isObject(template)) return;
  call.wire = Object.fromEntries(Object.entries(item).filter(([k]) => k === itemKey || Object.hasOwn(template, k)));
  const left = unread.indexOf(`${at}.${itemKey}`);
  if (left >= 0) unread.splice(left, 1);
}

function addBlock(m: AssistantMessage, b: Block): void {
  if (b.kind === 'text') m.content = (m.content ?? '') + b.text;
  else if (b.kind === 'thinking') (m.thinking ??= []).push(b.part);
  else if (b.kind === 'call') (m.toolCalls ??= []).push(b.call);
}

/**
 * Calls the wire sends without ids (Gemini) get the ids the client would give them, and results
 * without one take the id of the call they answer: the first unanswered call of that name.
 */
function nameCalls(messages: Message[]): void {
  const open: ToolCall[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'assistant') {
      m.toolCalls?.forEach((c, n) => {
        if (!c.id) c.id = `call_${i}_${n}`;
        open.push(c);
      });
    } else if (m.role === 'tool' && !m.toolCallId) {
      const at = open.findIndex((c) => c.name === m.toolName);
      if (at >= 0) m.toolCallId = open.splice(at, 1)[0]!.id;
    } else if (m.role === 'tool') {
      const at = open.findIndex((c) => c.id === m.toolCallId);
      if (at >= 0) open.splice(at, 1);
    }
  });
}

function joinInto(prev: UserMessage | AssistantMessage, next: UserMessage | AssistantMessage): void {
  if (prev.role === 'user' && next.role === 'user') {
    prev.content = [...parts(prev.content), ...parts(next.content)];
    return;
  }
  const a = prev as AssistantMessage;
  const b = next as AssistantMessage;
  if (b.content) a.content = (a.content ?? '') + b.content;
  if (b.thinking) (a.thinking ??= []).push(...b.thinking);
  if (b.toolCalls) (a.toolCalls ??= []).push(...b.toolCalls);
}

function parts(c: string | ContentPart[]): ContentPart[] {
  return typeof c === 'string' ? (c ? [{ type: 'text', text: c }] : []) : c;
}

// ---------------------------------------------------------------------------------------------
// Tools, tool choice, response format, params

function decodeTools(adapter: ProviderAdapter, t: NonNullable<RequestTemplates['tools']>, accepted: TemplateData | undefined, v: unknown, where: string): ToolSpec[] {
  const id = adapter.id;
  if (!Array.isArray(v)) throw new RequestError(id, where, 'expected a list of tools');
  const provider = adapter.profile.request.tools?.provider ?? {};
  // A wrap written as a one-entry list is that entry, beside which provider tools follow.
  const wrapEntry = Array.isArray(t.wrap) && t.wrap.length === 1 ? (t.wrap[0] as TemplateData) : t.wrap;
  const out: ToolSpec[] = [];
  v.forEach((item, i) => {
    const at = `${where}[${i}]`;
    // Gemini: function declarations sit in one wrapper entry, beside provider tools.
    const wrapped = wrapEntry === undefined ? undefined : matchTemplate(wrapEntry, item);
    if (wrapped && Array.isArray(wrapped.slots.items) && wrapped.extra === 0) {
      wrapped.slots.items.forEach((f, n) => out.push(functionTool(id, t.item, accepted, f, `${at}.items[${n}]`)));
      return;
    }
    const hosted = Object.entries(provider).find(([, wire]) => isObject(item) && Object.entries(wire).every(([k, x]) => JSON.stringify(item[k]) === JSON.stringify(x)));
    if (hosted) {
      const options = Object.fromEntries(Object.entries(item as Record<string, unknown>).filter(([k]) => !(k in hosted[1])));
      out.push(Object.keys(options).length ? { type: 'provider', name: hosted[0], options } : { type: 'provider', name: hosted[0] });
      return;
    }
    out.push(functionTool(id, t.item, accepted, item, at));
  });
  return out;
}

/** A function tool in the spec's form or one it accepts (Gemini's OpenAPI `parameters` beside `parametersJsonSchema`), the best fit. */
function functionTool(id: string, template: TemplateData, accepted: TemplateData | undefined, v: unknown, at: string): FunctionToolSpec {
  const found: Array<Candidate<Slots>> = [];
  forms(template, accepted).forEach((f, order) => {
    const match = matchTemplate(f, v);
    if (match && typeof match.slots.name === 'string') found.push({ match, value: match.slots, order });
  });
  if (!found.length) fit(id, template, v, at);
  const s = pickRead(found, at);
  if (!s) throw new RequestError(id, at, 'a tool needs a name');
  const parameters = isObject(s.parameters) ? s.parameters : isObject(s.openApiParameters) ? (jsonSchemaOf(s.openApiParameters) as Record<string, unknown>) : {};
  const tool: FunctionToolSpec = { name: s.name as string, parameters };
  if (typeof s.description === 'string') tool.description = s.description;
  if (typeof s.strict === 'boolean') tool.strict = s.strict;
  if (isCacheControl(s.cacheControl)) tool.cacheControl = s.cacheControl;
  return tool;
}

/**
 * An OpenAPI 3.0 schema object (Gemini's `Schema`: `type` in capitals, `nullable`) as the JSON
 * Schema every other wire takes: types in lower case, `nullable: true` as a `null` type beside it,
 * Gemini's `propertyOrdering` left out (it orders generation, it does not constrain it).
 */
function jsonSchemaOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonSchemaOf);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'nullable' || k === 'propertyOrdering' || k === '__proto__' || k === 'constructor') continue;
    if (k === 'type' && typeof x === 'string') out.type = x.toLowerCase();
    else if (k === 'properties' && isObject(x)) out.properties = Object.fromEntries(Object.entries(x).filter(([p]) => p !== '__proto__').map(([p, s]) => [p, jsonSchemaOf(s)]));
    else if (k === 'items' || k === 'anyOf') out[k] = jsonSchemaOf(x);
    else out[k] = x;
  }
  if (v.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

function isCacheControl(v: unknown): v is NonNullable<FunctionToolSpec['cacheControl']> {
  return isObject(v) && typeof v.type === 'string';
}

function decodeToolChoice(id: string, t: Readonly<Record<string, TemplateData>>, v: unknown, where: string, noParallel: { value: boolean }): ToolChoice | undefined {
  const found: Array<Candidate<ToolChoice | undefined>> = [];
  (['named', 'required', 'none', 'auto', 'unset'] as const).forEach((kind, order) => {
    const template = t[kind];
    if (template === undefined) return;
    const match = matchTemplate(template, v);
    if (!match) return;
    if (kind === 'named' && typeof match.slots.name !== 'string') return;
    const value: ToolChoice | undefined = kind === 'named' ? { name: match.slots.name as string } : kind === 'unset' ? undefined : kind;
    found.push({ match, value, order });
  });
  const best = pickCandidate(found);
  if (!best) throw new RequestError(id, where, 'matches no tool choice form');
  if (best.match.slots.noParallel === true) noParallel.value = true;
  return best.value;
}

/** The format, and the keys of the wire object it was read from (undefined: the whole value). */
function decodeResponseFormat(id: string, t: Readonly<Record<string, TemplateData>>, v: unknown, where: string, shared: boolean): { format: ResponseFormat; keys: Array<string | undefined> } | undefined {
  const found: Array<Candidate<{ format: ResponseFormat; keys: Array<string | undefined> }>> = [];
  const keysOf = (template: TemplateData): Array<string | undefined> => (isObject(template) ? Object.keys(template).filter((k) => !k.startsWith('$')) : [undefined]);
  (['jsonSchema', 'json', 'text'] as const).forEach((kind, order) => {
    const template = t[kind];
    if (template === undefined) return;
    const match = matchTemplate(template, v);
    if (!match) return;
    const s = match.slots;
    if (kind === 'jsonSchema') {
      if (!isObject(s.schema)) return;
      const f: ResponseFormat = { type: 'json_schema', name: typeof s.name === 'string' ? s.name : 'response', schema: s.schema };
      if (typeof s.strict === 'boolean') f.strict = s.strict;
      found.push({ match, value: { format: f, keys: keysOf(template) }, order });
    } else found.push({ match, value: { format: { type: kind }, keys: keysOf(template) }, order });
  });
  const f = pick(found);
  if (!f && !shared) throw new RequestError(id, where, 'matches no response format form');
  return f;
}

function decodeParams(adapter: ProviderAdapter, t: RequestTemplates, read: Reader, out: ChatRequest): void {
  const params = adapter.profile.request.params;
  for (const field of PARAM_FIELDS) {
    const rule: ParamRule | undefined = params[field];
    if (!rule || !('to' in rule)) continue;
    let v = read.take(rule.to);
    if (v === undefined) continue;
    const template = t.params?.[field];
    if (template !== undefined) {
      const m = matchTemplate(template, v);
      if (!m) continue;
      v = m.slots.value;
    }
    if (rule.values) {
      // The unified value of the same name, else the first that maps to it (`minimal` and `low` are both `low`).
      const back = Object.entries(rule.values).find(([u, w]) => w === v && u === v) ?? Object.entries(rule.values).find(([, w]) => w === v);
      if (!back) continue;
      v = scalarOf(back[0]);
    }
    writeParam(out, field, v);
  }
}

/** A value-table key as the unified value it stands for (YAML keys are strings: `true` is the boolean). */
function scalarOf(k: string): unknown {
  if (k === 'true' || k === 'false') return k === 'true';
  return k.trim() !== '' && Number.isFinite(Number(k)) ? Number(k) : k;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The spec's own form and the forms it also accepts (a list in `accept` is several forms). */
/** What an alternative's `$when` says of the message it matched: the kind of call answered, an error. */
function whenFacts(template: TemplateData, m: Message): Message {
  const when = isObject(template) ? template.$when : undefined;
  if (m.role !== 'tool' || !isObject(when)) return m;
  if (typeof when.kind === 'string') m.kind = when.kind;
  if (when.isError === true) m.isError = true;
  return m;
}

/** An input item of a kind the kind table makes a tool call of: that call, with its kind and the item. */
function kindCall(adapter: ProviderAdapter, item: unknown): Block | undefined {
  const kinds = adapter.profile.parts?.kinds;
  const type = isObject(item) ? item.type : undefined;
  if (!kinds || typeof type !== 'string' || !Object.hasOwn(kinds, type)) return undefined;
  const rule = kinds[type]!;
  const r = rule.parts[0];
  // A function call reads back through the templates; a call of a client-run kind with its item.
  if (r?.part !== 'tool-call' || r.fields.kind === undefined) return undefined;
  const field = (name: string): unknown => {
    const f = r.fields[name];
    if (f === undefined) return undefined;
    if ('value' in f) return f.value;
    if (!Array.isArray(f)) return undefined;
    for (const p of f as readonly WirePath[]) {
      const v = readPath(item, p);
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  };
  const kind = field('kind');
  const args = field('arguments');
  const name = field('name') ?? kind;
  if (typeof name !== 'string') return undefined;
  const call: ToolCall = {
    id: typeof field('id') === 'string' ? (field('id') as string) : '',
    name,
    arguments: typeof args === 'string' && kind === undefined ? args : JSON.stringify(args ?? {}),
  };
  if (typeof kind === 'string') call.kind = kind;
  if (rule.echo) call.wire = item;
  return { kind: 'call', call };
}

/**
 * The forms a value may take: the spec's own, then those it accepts. A role written as a list of
 * `$when` alternatives (Responses: one output item per kind of call answered) is any one of them.
 */
function forms(own: TemplateData | undefined, accepted: TemplateData | undefined): TemplateData[] {
  if (Array.isArray(own) && own.length > 1 && own.every((x) => isObject(x) && '$when' in x)) return [...own, ...forms(undefined, accepted)];
  const more = accepted === undefined ? [] : Array.isArray(accepted) ? accepted : [accepted];
  return own === undefined ? more : [own, ...more];
}

/** `[{ type: text, text: $text }]`: a list template of one item, which stands for any number of them. */
function isOneItemList(t: TemplateData): t is [TemplateData] {
  return Array.isArray(t) && t.length === 1 && typeof t[0] === 'object' && t[0] !== null;
}

/** Reads body paths and remembers them, so what no rule reads comes back as providerOptions. */
class Reader {
  private readonly taken: WirePath[] = [];
  constructor(private readonly body: Record<string, unknown>) {}

  take(path: WirePath): unknown {
    this.taken.push(path);
    return readPath(this.body, path);
  }

  peek(path: WirePath): unknown {
    return readPath(this.body, path);
  }

  /** The body without what was read; undefined when nothing is left. */
  rest(): Record<string, unknown> | undefined {
    return leftOver(this.body, this.taken) as Record<string, unknown> | undefined;
  }
}

function leftOver(v: unknown, taken: WirePath[]): unknown {
  if (taken.some((p) => p.length === 0)) return undefined;
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    const inner = taken.filter((p) => p[0] === k).map((p) => p.slice(1));
    const left = inner.length ? leftOver(v[k], inner) : v[k];
    if (left !== undefined && !(isObject(left) && Object.keys(left).length === 0 && inner.length)) out[k] = left;
  }
  return Object.keys(out).length ? out : undefined;
}

function fit(id: string, template: TemplateData, v: unknown, at: string): Match {
  const m = matchTemplate(template, v);
  if (!m) throw new RequestError(id, at, 'does not have the form this provider writes');
  return m;
}

function pick<T>(found: Array<Candidate<T>>): T | undefined {
  return pickCandidate(found)?.value;
}

/** The best candidate's value; what it (and the readers under it) left unread is noted, under `at`. */
function pickRead<T>(found: Array<Candidate<T>>, at: string): T | undefined {
  const best = pickCandidate(found);
  if (!best) return undefined;
  noteUnread(best.match, at);
  if (best.inner) unread.push(...best.inner);
  return best.value;
}

function noteUnread(m: Match, at: string): void {
  for (const p of m.unread) unread.push(at + p);
}

function pickCandidate<T>(found: Array<Candidate<T>>): Candidate<T> | undefined {
  let best: Candidate<T> | undefined;
  for (const c of found) if (!best || better(c.match, best.match) || (!better(best.match, c.match) && c.order < best.order)) best = c;
  return best;
}

function tryDecode<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof RequestError) return undefined;
    throw e;
  }
}

function str(id: string, v: unknown, at: string): string {
  if (typeof v !== 'string') throw new RequestError(id, at, 'expected a string');
  return v;
}

function dotted(p: WirePath): string {
  return p.join('.');
}

/** The `{model}` of a request path, by the endpoint's path templates. */
/** The model a request names (in its body, or in its path), read before it is decoded; undefined when none is a string. */
export function requestedModel(adapter: ProviderAdapter, body: Record<string, unknown>, path: string): string | undefined {
  const to = adapter.profile.request.model;
  const v = to ? readPath(body, to) : modelFromPath(adapter.endpoint.path, adapter.endpoint.streamPath, path);
  return typeof v === 'string' ? v : undefined;
}

function modelFromPath(path: string, streamPath: string | undefined, url: string): string | undefined {
  for (const p of [path, streamPath]) {
    if (!p?.includes('{model}')) continue;
    const m = pathPattern(p).exec(url.split('?')[0] ?? '');
    if (m?.groups?.model === undefined) continue;
    try {
      return decodeURIComponent(m.groups.model);
    } catch {
      return m.groups.model;
    }
  }
  return undefined;
}
