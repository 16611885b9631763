/**
 * Large, protocol-accurate response bodies, generated in memory (nothing large is committed).
 *
 * Every body is deterministic (seeded PRNG) and shaped like the real wire, field for field, as in
 * test/fixtures/: OpenAI Chat chunks with `obfuscation` and a usage chunk before `[DONE]`,
 * Anthropic `event:`+`data:` pairs with a ping, OpenAI Responses items with `.done` events and
 * the whole response again in `response.completed`, Gemini `data:` chunks in Google's `": "`
 * style with CRLF CRLF separators and usageMetadata on every chunk, Ollama NDJSON with a
 * `done:true` line.
 *
 * `split: 2` cuts every text / thinking / argument fragment in two events: the same output in
 * twice as many events (used by the memory measurement).
 */

export type Protocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini' | 'ollama';
export type Kind = 'text' | 'tools' | 'thinking';

/** What a complete parse of the body yields; every method's result is checked against it. */
export interface Digest {
  /** UTF-16 length of the joined text. */
  text: number;
  /** UTF-16 length of the joined thinking (without separators a library may add between parts). */
  thinking: number;
  /** Number of thinking parts (Responses summary parts): a library may join them with "\n\n". */
  thinkingParts: number;
  calls: number;
  /** Total UTF-16 length of every call's argument text. */
  args: number;
  /** Parse-only methods (the floor): JSON payloads parsed. */
  parsed?: number;
}

export interface Body {
  protocol: Protocol;
  kind: Kind;
  text: string;
  bytes: Uint8Array;
  events: number;
  /** JSON payloads in the body (events less a `[DONE]` sentinel). */
  payloads: number;
  expect: Digest;
  /** Tool names used by the body (peers are told about them, as a real caller would). */
  toolNames: string[];
}

export interface BodyOptions {
  /** Target number of events (approximate; tool-call bodies of whole-call wires use fewer). */
  events: number;
  split?: 1 | 2;
}

/** Which bodies exist for each protocol (OpenAI Chat has no thinking on the wire). */
export const KINDS: Record<Protocol, Kind[]> = {
  'openai-chat': ['text', 'tools'],
  'anthropic-messages': ['text', 'tools', 'thinking'],
  'openai-responses': ['text', 'tools', 'thinking'],
  gemini: ['text', 'tools', 'thinking'],
  ollama: ['text', 'tools', 'thinking'],
};

export const PROTOCOLS = Object.keys(KINDS) as Protocol[];

export const TOOL_NAMES = ['write_file', 'run_sql', 'search_docs', 'get_weather'];

/** JSON Schemas for TOOL_NAMES (loose: the bench measures parsing, not validation). */
export function toolSchema(): Record<string, unknown> {
  return { type: 'object', properties: {}, additionalProperties: true };
}

export function makeBody(protocol: Protocol, kind: Kind, o: BodyOptions): Body {
  const g = new Gen(protocol, kind, o.split ?? 1);
  switch (protocol) {
    case 'openai-chat':
      openaiChat(g, kind, o.events);
      break;
    case 'anthropic-messages':
      anthropic(g, kind, o.events);
      break;
    case 'openai-responses':
      responses(g, kind, o.events);
      break;
    case 'gemini':
      gemini(g, kind, o.events);
      break;
    case 'ollama':
      ollama(g, kind, o.events);
      break;
  }
  return g.done();
}

// ---------------------------------------------------------------------------------------------
// Shared machinery: PRNG, token-like text pieces, argument fragments.

class Gen {
  private readonly out: string[] = [];
  events = 0;
  readonly expect: Digest = { text: 0, thinking: 0, thinkingParts: 0, calls: 0, args: 0 };
  /** Events added by `split` (so loops can count logical events and stop at the same output). */
  private extra = 0;
  /** Two PRNG streams: content (text, arguments) and filler (ids, obfuscation), so that extra events never change the content. */
  private readonly seeds: [number, number];
  readonly toolNames = new Set<string>();

  constructor(
    readonly protocol: Protocol,
    readonly kind: Kind,
    readonly split: 1 | 2,
  ) {
    const s = 0x9e3779b9 ^ (protocol.length * 7919 + kind.length * 104729);
    this.seeds = [s, s ^ 0x5bd1e995];
  }

  /** Events as if nothing were split: what the generators' loops count. */
  get count(): number {
    return this.events - this.extra;
  }

  private next(k: 0 | 1): number {
    // mulberry32
    let t = (this.seeds[k] = (this.seeds[k] + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  rand(): number {
    return this.next(0);
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)]!;
  }

  /** An id or filler string (from the filler PRNG stream). */
  id(prefix: string, n: number): string {
    const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let s = prefix;
    for (let i = 0; i < n; i++) s += abc[Math.floor(this.next(1) * abc.length)];
    return s;
  }

  /** An integer from the filler stream. */
  fillerInt(lo: number, hi: number): number {
    return lo + Math.floor(this.next(1) * (hi - lo + 1));
  }

  /** `obfuscation` padding of 2–15 characters (filler stream). */
  obf(): string {
    return this.id('', 2 + Math.floor(this.next(1) * 14));
  }

  /** One token-sized piece of prose: 1–3 words, a leading space, sometimes punctuation or a newline. */
  token(): string {
    let s = '';
    const words = this.rand() < 0.8 ? 1 : this.int(2, 3);
    for (let i = 0; i < words; i++) s += ` ${this.pick(WORDS)}`;
    const r = this.rand();
    if (r < 0.06) s += '.';
    else if (r < 0.09) s += ',';
    else if (r < 0.1) s += '.\n\n';
    else if (r < 0.105) s += ' "quoted"';
    return s;
  }

  /** A piece cut in `split` events (at a code-point boundary). */
  pieces(s: string): string[] {
    if (this.split === 1) return [s];
    const cps = Array.from(s);
    if (cps.length < 2) return [s];
    const mid = cps.length >> 1;
    this.extra++;
    return [cps.slice(0, mid).join(''), cps.slice(mid).join('')];
  }

  /** Argument text of one call, as compact JSON, cut into token-like fragments of 1–8 code points. */
  argFragments(name: string, approxLength: number): { full: string; fragments: string[] } {
    const args = this.argsObject(name, approxLength);
    const full = JSON.stringify(args);
    const cps = Array.from(full);
    const fragments: string[] = [];
    for (let i = 0; i < cps.length; ) {
      const n = Math.min(cps.length - i, this.int(2, 8));
      fragments.push(cps.slice(i, i + n).join(''));
      i += n;
    }
    return { full, fragments };
  }

  argsObject(name: string, approxLength: number): Record<string, unknown> {
    this.toolNames.add(name);
    let prose = '';
    while (prose.length < approxLength) prose += this.token();
    prose = prose.trimStart();
    switch (name) {
      case 'write_file':
        return { path: `src/${this.pick(WORDS)}/${this.pick(WORDS)}.ts`, content: prose, overwrite: this.rand() < 0.5 };
      case 'run_sql':
        return { query: `SELECT id, name FROM ${this.pick(WORDS)} WHERE note = '${prose.replace(/'/g, "''")}' LIMIT ${this.int(1, 500)}` };
      case 'search_docs':
        return { query: prose, filters: { lang: 'en', year: this.int(2019, 2025), tags: [this.pick(WORDS), this.pick(WORDS)] }, limit: this.int(5, 50) };
      default:
        return { city: this.pick(CITIES), unit: this.rand() < 0.5 ? 'celsius' : 'fahrenheit', note: prose };
    }
  }

  sse(event: string | undefined, data: string): void {
    this.out.push(event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`);
    this.events++;
  }

  sseCrlf(data: string): void {
    this.out.push(`data: ${data}\r\n\r\n`);
    this.events++;
  }

  line(data: string): void {
    this.out.push(`${data}\n`);
    this.events++;
  }

  done(): Body {
    const text = this.out.join('');
    return {
      protocol: this.protocol,
      kind: this.kind,
      text,
      bytes: new TextEncoder().encode(text),
      events: this.events,
      payloads: this.events - (text.endsWith('data: [DONE]\n\n') ? 1 : 0),
      expect: this.expect,
      toolNames: [...this.toolNames],
    };
  }
}

const WORDS = [
  'the', 'stream', 'parser', 'event', 'token', 'model', 'request', 'response', 'buffer', 'index',
  'value', 'latency', 'throughput', 'schema', 'adapter', 'runtime', 'provider', 'message', 'tool',
  'argument', 'result', 'error', 'retry', 'timeout', 'signal', 'chunk', 'decoder', 'frame', 'usage',
  'a', 'of', 'and', 'to', 'in', 'is', 'that', 'for', 'with', 'on', 'as', 'it', 'be', 'at', 'by',
  'which', 'when', 'then', 'each', 'every', 'because', 'while', 'before', 'after', 'between',
  'café', 'naïve', 'über', 'déjà', '—', '→', '±', '東京', '数据', 'данные', '🚀', '✓', '½',
];

const CITIES = ['Paris', 'Lisbon', 'Zürich', 'São Paulo', 'Kraków', 'Reykjavík', 'Tōkyō', 'Oslo'];

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

function openaiChat(g: Gen, kind: Kind, target: number): void {
  const id = g.id('chatcmpl-', 29);
  const head = `{"id":"${id}","object":"chat.completion.chunk","created":1747823502,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_2271e36314","choices":[{"index":0,"delta":`;
  const obf = () => g.obf();
  const chunk = (delta: string, finish: string | null) =>
    g.sse(undefined, `${head}${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}],"usage":null,"obfuscation":"${obf()}"}`);
  chunk('{"role":"assistant","content":"","refusal":null}', null);
  let finish = 'stop';
  if (kind === 'text') {
    while (g.count < target - 3) {
      for (const p of g.pieces(g.token())) {
        chunk(`{"content":${JSON.stringify(p)}}`, null);
        g.expect.text += p.length;
      }
    }
  } else {
    finish = 'tool_calls';
    // A large parallel batch: each call opens with id + name, then streams argument fragments.
    for (let index = 0; g.count < target - 3; index++) {
      const name = TOOL_NAMES[index % TOOL_NAMES.length]!;
      const { full, fragments } = g.argFragments(name, 1400);
      chunk(`{"tool_calls":[{"index":${index},"id":"${g.id('call_', 24)}","type":"function","function":{"name":"${name}","arguments":""}}]}`, null);
      for (const f of fragments)
        for (const p of g.pieces(f)) chunk(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(p)}}}]}`, null);
      g.expect.calls++;
      g.expect.args += full.length;
    }
  }
  chunk('{}', finish);
  g.sse(
    undefined,
    `{"id":"${id}","object":"chat.completion.chunk","created":1747823502,"model":"gpt-4o-2024-08-06","service_tier":"default","system_fingerprint":"fp_2271e36314","choices":[],"usage":{"prompt_tokens":412,"completion_tokens":${g.events},"total_tokens":${412 + g.events},"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},"obfuscation":"${obf()}"}`,
  );
  g.sse(undefined, '[DONE]');
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

function anthropic(g: Gen, kind: Kind, target: number): void {
  g.sse(
    'message_start',
    `{"type":"message_start","message":{"id":"${g.id('msg_01', 22)}","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":412,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"service_tier":"standard"}}}`,
  );
  let block = 0;
  const textBlock = (until: number) => {
    g.sse('content_block_start', `{"type":"content_block_start","index":${block},"content_block":{"type":"text","text":""}}`);
    if (block === 0) g.sse('ping', '{"type": "ping"}');
    while (g.count < until) {
      for (const p of g.pieces(g.token())) {
        g.sse('content_block_delta', `{"type":"content_block_delta","index":${block},"delta":{"type":"text_delta","text":${JSON.stringify(p)}}}`);
        g.expect.text += p.length;
      }
    }
    g.sse('content_block_stop', `{"type":"content_block_stop","index":${block}}`);
    block++;
  };
  let stop = 'end_turn';
  if (kind === 'text') textBlock(target - 3);
  else if (kind === 'thinking') {
    g.sse('content_block_start', `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`);
    g.sse('ping', '{"type": "ping"}');
    while (g.count < target * 0.8) {
      for (const p of g.pieces(g.token())) {
        g.sse('content_block_delta', `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":${JSON.stringify(p)}}}`);
        g.expect.thinking += p.length;
      }
    }
    g.sse('content_block_delta', `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"${g.id('Eu', 340)}"}}`);
    g.sse('content_block_stop', '{"type":"content_block_stop","index":0}');
    g.expect.thinkingParts = 1;
    block = 1;
    textBlock(target - 3);
  } else {
    stop = 'tool_use';
    textBlock(60);
    for (let n = 0; g.count < target - 3; n++) {
      const name = TOOL_NAMES[n % TOOL_NAMES.length]!;
      const { full, fragments } = g.argFragments(name, 1400);
      g.sse('content_block_start', `{"type":"content_block_start","index":${block},"content_block":{"type":"tool_use","id":"${g.id('toolu_01', 22)}","name":"${name}","input":{}}}`);
      g.sse('content_block_delta', `{"type":"content_block_delta","index":${block},"delta":{"type":"input_json_delta","partial_json":""}}`);
      for (const f of fragments)
        for (const p of g.pieces(f))
          g.sse('content_block_delta', `{"type":"content_block_delta","index":${block},"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(p)}}}`);
      g.sse('content_block_stop', `{"type":"content_block_stop","index":${block}}`);
      block++;
      g.expect.calls++;
      g.expect.args += full.length;
    }
  }
  g.sse(
    'message_delta',
    `{"type":"message_delta","delta":{"stop_reason":"${stop}","stop_sequence":null},"usage":{"input_tokens":412,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":${g.events}}}`,
  );
  g.sse('message_stop', '{"type":"message_stop"}');
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

function responses(g: Gen, kind: Kind, target: number): void {
  const respId = g.id('resp_', 48);
  let seq = 0;
  const ev = (type: string, rest: string) => g.sse(type, `{"type":"${type}","sequence_number":${seq++}${rest}}`);
  const response = (status: string, output: string, usage: string) =>
    `{"id":"${respId}","object":"response","created_at":1758103914,"status":"${status}","background":false,"error":null,"incomplete_details":null,"instructions":null,"max_output_tokens":null,"max_tool_calls":null,"model":"gpt-5-mini-2025-08-07","output":${output},"parallel_tool_calls":true,"previous_response_id":null,"prompt_cache_key":null,"reasoning":{"effort":"medium","summary":"auto"},"safety_identifier":null,"service_tier":"default","store":false,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":${usage},"user":null,"metadata":{}}`;
  ev('response.created', `,"response":${response('in_progress', '[]', 'null')}`);
  ev('response.in_progress', `,"response":${response('in_progress', '[]', 'null')}`);
  const items: string[] = [];
  const obf = () => g.obf();

  const messageItem = (until: number) => {
    const oi = items.length;
    const id = g.id('msg_', 48);
    ev('response.output_item.added', `,"output_index":${oi},"item":{"id":"${id}","type":"message","status":"in_progress","content":[],"role":"assistant"}`);
    ev('response.content_part.added', `,"item_id":"${id}","output_index":${oi},"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}`);
    const parts: string[] = [];
    while (g.count < until) {
      for (const p of g.pieces(g.token())) {
        ev('response.output_text.delta', `,"item_id":"${id}","output_index":${oi},"content_index":0,"delta":${JSON.stringify(p)},"logprobs":[],"obfuscation":"${obf()}"`);
        parts.push(p);
        g.expect.text += p.length;
      }
    }
    const text = JSON.stringify(parts.join(''));
    ev('response.output_text.done', `,"item_id":"${id}","output_index":${oi},"content_index":0,"text":${text},"logprobs":[]`);
    const part = `{"type":"output_text","annotations":[],"logprobs":[],"text":${text}}`;
    ev('response.content_part.done', `,"item_id":"${id}","output_index":${oi},"content_index":0,"part":${part}`);
    const item = `{"id":"${id}","type":"message","status":"completed","content":[${part}],"role":"assistant"}`;
    ev('response.output_item.done', `,"output_index":${oi},"item":${item}`);
    items.push(item);
  };

  let outputTokens = 0;
  if (kind === 'text') messageItem(target - 4);
  else if (kind === 'thinking') {
    const id = g.id('rs_', 48);
    ev('response.output_item.added', `,"output_index":0,"item":{"id":"${id}","type":"reasoning","encrypted_content":"${g.id('gAAAAAB', 400)}","summary":[]}`);
    const summaries: string[] = [];
    for (let si = 0; g.count < target * 0.8; si++) {
      ev('response.reasoning_summary_part.added', `,"item_id":"${id}","output_index":0,"summary_index":${si},"part":{"type":"summary_text","text":""}`);
      const parts: string[] = [];
      const until = Math.min(target * 0.8, g.count + 2000);
      while (g.count < until) {
        for (const p of g.pieces(g.token())) {
          ev('response.reasoning_summary_text.delta', `,"item_id":"${id}","output_index":0,"summary_index":${si},"delta":${JSON.stringify(p)},"obfuscation":"${obf()}"`);
          parts.push(p);
          g.expect.thinking += p.length;
        }
      }
      const text = JSON.stringify(parts.join(''));
      ev('response.reasoning_summary_text.done', `,"item_id":"${id}","output_index":0,"summary_index":${si},"text":${text}`);
      ev('response.reasoning_summary_part.done', `,"item_id":"${id}","output_index":0,"summary_index":${si},"part":{"type":"summary_text","text":${text}}`);
      summaries.push(`{"type":"summary_text","text":${text}}`);
      g.expect.thinkingParts++;
    }
    const item = `{"id":"${id}","type":"reasoning","encrypted_content":"${g.id('gAAAAAB', 400)}","summary":[${summaries.join(',')}]}`;
    ev('response.output_item.done', `,"output_index":0,"item":${item}`);
    items.push(item);
    outputTokens += 1000;
    messageItem(target - 4);
  } else {
    for (let n = 0; g.count < target - 4; n++) {
      const name = TOOL_NAMES[n % TOOL_NAMES.length]!;
      const { full, fragments } = g.argFragments(name, 1400);
      const oi = items.length;
      const id = g.id('fc_', 48);
      const callId = g.id('call_', 24);
      ev('response.output_item.added', `,"output_index":${oi},"item":{"id":"${id}","type":"function_call","status":"in_progress","arguments":"","call_id":"${callId}","name":"${name}"}`);
      for (const f of fragments)
        for (const p of g.pieces(f))
          ev('response.function_call_arguments.delta', `,"item_id":"${id}","output_index":${oi},"delta":${JSON.stringify(p)},"obfuscation":"${obf()}"`);
      const args = JSON.stringify(full);
      ev('response.function_call_arguments.done', `,"item_id":"${id}","output_index":${oi},"arguments":${args}`);
      const item = `{"id":"${id}","type":"function_call","status":"completed","arguments":${args},"call_id":"${callId}","name":"${name}"}`;
      ev('response.output_item.done', `,"output_index":${oi},"item":${item}`);
      items.push(item);
      g.expect.calls++;
      g.expect.args += full.length;
    }
  }
  outputTokens += g.events;
  ev(
    'response.completed',
    `,"response":${response('completed', `[${items.join(',')}]`, `{"input_tokens":412,"input_tokens_details":{"cached_tokens":0},"output_tokens":${outputTokens},"output_tokens_details":{"reasoning_tokens":${kind === 'thinking' ? 1000 : 0}},"total_tokens":${412 + outputTokens}}`)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Gemini (streamGenerateContent?alt=sse): CRLF CRLF separators, Google's `": "` JSON style.

/** JSON the way Google's servers write it: `"key": value`, `,` without a space. */
function googleJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(googleJson).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${googleJson(x)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function gemini(g: Gen, kind: Kind, target: number): void {
  const responseId = g.id('', 23);
  let produced = 0;
  let answered = 0;
  // usageMetadata on every chunk, a running snapshot as the API streams it (docs/wire-facts.md,
  // test/fixtures/gemini): candidatesTokenCount once the answer has begun (thinking chunks lack
  // it), thoughtsTokenCount on thinking turns, candidatesTokensDetails on the last chunk.
  const chunk = (parts: unknown[], finish?: string) => {
    produced += parts.length;
    if (!parts.some((p) => (p as { thought?: boolean }).thought)) answered += parts.length;
    const candidate: Record<string, unknown> = { content: { parts, role: 'model' } };
    if (finish) candidate.finishReason = finish;
    candidate.index = 0;
    const usage: Record<string, unknown> = { promptTokenCount: 164 };
    if (answered) usage.candidatesTokenCount = answered;
    usage.totalTokenCount = 164 + produced;
    usage.promptTokensDetails = [{ modality: 'TEXT', tokenCount: 164 }];
    if (finish) usage.candidatesTokensDetails = [{ modality: 'TEXT', tokenCount: answered }];
    if (kind === 'thinking') usage.thoughtsTokenCount = produced - answered;
    g.sseCrlf(googleJson({ candidates: [candidate], usageMetadata: usage, modelVersion: 'gemini-2.5-flash', responseId }));
  };
  if (kind === 'tools') {
    // Whole calls (args as objects): one call per chunk, a large parallel batch.
    const calls = Math.max(4, Math.floor(target / 4));
    for (let n = 0; n < calls; n++) {
      const name = TOOL_NAMES[n % TOOL_NAMES.length]!;
      const args = g.argsObject(name, 300);
      chunk([{ functionCall: { name, args } }], n === calls - 1 ? 'STOP' : undefined);
      g.expect.calls++;
      g.expect.args += JSON.stringify(args).length;
    }
    return;
  }
  if (kind === 'thinking') {
    while (g.count < target * 0.8) {
      for (const p of g.pieces(g.token())) {
        chunk([{ text: p, thought: true }]);
        g.expect.thinking += p.length;
      }
    }
    g.expect.thinkingParts = 1;
  }
  while (g.count < target - 1) {
    for (const p of g.pieces(g.token())) {
      chunk([{ text: p }]);
      g.expect.text += p.length;
    }
  }
  const last = g.token();
  chunk([{ text: last }], 'STOP');
  g.expect.text += last.length;
}

// ---------------------------------------------------------------------------------------------
// Ollama /api/chat: NDJSON

function ollama(g: Gen, kind: Kind, target: number): void {
  let t = 24148199;
  const at = () => `2025-06-12T09:21:40.${String((t += g.fillerInt(9000, 30000))).padStart(9, '0')}Z`;
  const line = (message: string) => g.line(`{"model":"qwen3:8b","created_at":"${at()}","message":${message},"done":false}`);
  if (kind === 'tools') {
    const calls = Math.max(4, Math.floor(target / 4));
    for (let n = 0; n < calls; n++) {
      const name = TOOL_NAMES[n % TOOL_NAMES.length]!;
      const args = JSON.stringify(g.argsObject(name, 300));
      line(`{"role":"assistant","content":"","tool_calls":[{"id":"${g.id('call_', 8)}","function":{"index":${n},"name":"${name}","arguments":${args}}}]}`);
      g.expect.calls++;
      g.expect.args += args.length;
    }
  } else {
    if (kind === 'thinking') {
      while (g.count < target * 0.8) {
        for (const p of g.pieces(g.token())) {
          line(`{"role":"assistant","content":"","thinking":${JSON.stringify(p)}}`);
          g.expect.thinking += p.length;
        }
      }
      g.expect.thinkingParts = 1;
    }
    while (g.count < target - 1) {
      for (const p of g.pieces(g.token())) {
        line(`{"role":"assistant","content":${JSON.stringify(p)}}`);
        g.expect.text += p.length;
      }
    }
  }
  g.line(
    `{"model":"qwen3:8b","created_at":"${at()}","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":1256164158,"load_duration":43975994,"prompt_eval_count":241,"prompt_eval_duration":16758417,"eval_count":${g.events},"eval_duration":1192287000}`,
  );
}
