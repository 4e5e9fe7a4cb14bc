import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  receivedAt: number;
  /** Answered: the answer was written; dropped: the caller went away first (a process killed mid-call). */
  outcome?: 'answered' | 'dropped';
}

export interface FakeReply {
  status: number;
  body: unknown;
  /** Answers only after this long: a slow provider. */
  delayMs?: number;
  /** Answers only once this settles (and `delayMs` passed): a provider holding calls until the test lets it go. */
  until?: Promise<unknown>;
  /** Headers of the answer besides its content type, e.g. `retry-after`. */
  headers?: Record<string, string>;
}

export interface FakeProvider {
  url: string;
  requests: RecordedRequest[];
  /** How many requests arrived, kept or not. */
  readonly received: number;
  /** The replies given, in the order of `requests`. */
  replies: FakeReply[];
  /** Replies to give, in order, before falling back to the default reply. */
  queue(...replies: FakeReply[]): void;
  /** Resolves when `count` requests have arrived; throws after `timeoutMs` (30 s, the suite's common deadline for what a busy box may delay). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/**
 * A stand-in for a provider's HTTP API on 127.0.0.1: records every request and answers from a queue,
 * then with `fallback(request)`. Real clients talk to it over real HTTP. With `keep: false` (load tests) it keeps
 * no request or reply and only counts them in `received`.
 */
export async function startFakeProvider(
  fallback: (request: RecordedRequest) => FakeReply,
  { keep = true }: { keep?: boolean } = {},
): Promise<FakeProvider> {
  let received = 0;
  const requests: RecordedRequest[] = [];
  const given: FakeReply[] = [];
  const replies: FakeReply[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      received++;
      const reply = replies.shift() ?? fallback(recorded);
      if (keep) {
        requests.push(recorded);
        given.push(reply);
      }
      for (const wake of waiters.splice(0)) wake();
      res.on('close', () => (recorded.outcome ??= 'dropped'));
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
        recorded.outcome = 'answered';
      };
      const delayed = () => (reply.delayMs ? void setTimeout(answer, reply.delayMs).unref() : answer());
      if (reply.until) void reply.until.then(delayed, delayed);
      else delayed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    get received() {
      return received;
    },
    replies: given,
    queue: (...more) => replies.push(...more),
    async waitForRequests(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), sleep(50)]);
      }
      return requests;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let messageCounter = 0;

/** The WhatsApp Cloud API's answer to a sent message. */
export const graphAccepted = (): FakeReply => ({
  status: 200,
  body: { messaging_product: 'whatsapp', contacts: [{ wa_id: 'x' }], messages: [{ id: `wamid.TEST${++messageCounter}` }] },
});

/** Twilio's answer to a created message. */
export const twilioAccepted = (): FakeReply => ({
  status: 201,
  body: { sid: `SM${String(++messageCounter).padStart(32, '0')}`, status: 'queued' },
});

/** An OpenAI-compatible chat completion answering `content`. */
export const chatCompletion = (content: string, usage = { prompt_tokens: 100, completion_tokens: 10 }): FakeReply => ({
  status: 200,
  body: {
    id: `chatcmpl-${++messageCounter}`,
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4.1-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  },
});

/** An Anthropic Messages API answer of one text block. */
export const anthropicMessage = (text: string, usage = { input_tokens: 200, output_tokens: 20 }): FakeReply => ({
  status: 200,
  body: {
    id: `msg_${++messageCounter}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  },
});
