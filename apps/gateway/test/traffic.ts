import { type JsonResponse, request } from '@svc/testkit';

/** A kind of request a client keeps sending, and the statuses it answers when the service is well. */
export interface Call {
  name: string;
  send(sequence: number): Promise<JsonResponse>;
  ok: number[];
}

export interface Answer {
  call: string;
  /** The request's number among all the traffic sent. */
  sequence: number;
  status: number;
  /** The `Retry-After` header, when there is one. */
  retryAfter: string | null;
  /** The error's code: the envelope's, or OAuth's `error` on the device endpoints. */
  code: string | undefined;
  /** When the request left, and when its answer came (Date.now()). */
  sentAt: number;
  at: number;
}

export interface Traffic {
  answers: Answer[];
  /** Stops sending, and resolves once every request sent has been answered. */
  stop(): Promise<Answer[]>;
}

const codeOf = (body: unknown): string | undefined => {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  return (error as { code?: string } | undefined)?.code;
};

/**
 * Clients that send `calls` in turn, `clients` at a time, each the next request once the last is answered, until
 * stopped: the answers record what clients saw over time.
 */
export function startTraffic(calls: Call[], clients: number): Traffic {
  const answers: Answer[] = [];
  let stopped = false;
  let sequence = 0;
  const client = async (first: number) => {
    for (let turn = first; !stopped; turn++) {
      const call = calls[turn % calls.length]!;
      const sentAt = Date.now();
      const n = sequence++;
      const answer = await call.send(n).catch((error: unknown) => ({ status: 0, headers: new Headers(), body: String(error) }));
      answers.push({
        call: call.name,
        sequence: n,
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        code: codeOf(answer.body),
        sentAt,
        at: Date.now(),
      });
    }
  };
  const running = Array.from({ length: clients }, (_, index) => client(index));
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(running);
      return answers;
    },
  };
}

/** What a service that cannot serve for now answers: 503 with `Retry-After`, in the envelope or in OAuth's shape. */
const unavailable = (answer: Answer) =>
  answer.status === 503 &&
  /^\d+$/.test(answer.retryAfter ?? '') &&
  (answer.code === 'core_unavailable' || answer.code === 'temporarily_unavailable');

/** The answers that were neither what the call answers when the service is well nor a 503 with `Retry-After`. */
export function unexpectedAnswers(calls: Call[], answers: Answer[]): Answer[] {
  const okOf = new Map(calls.map((call) => [call.name, call.ok]));
  return answers.filter((answer) => !okOf.get(answer.call)!.includes(answer.status) && !unavailable(answer));
}

/**
 * How long after `since` the service was back: when the last request sent from then on that did not answer as the
 * service does when well got its answer (0 when none failed).
 */
export function recoveredAfter(calls: Call[], answers: Answer[], since: number): number {
  const okOf = new Map(calls.map((call) => [call.name, call.ok]));
  const failed = answers.filter((answer) => answer.sentAt >= since && !okOf.get(answer.call)!.includes(answer.status));
  return Math.max(since, ...failed.map((answer) => answer.at)) - since;
}

/** The phone number the create of request `sequence` sends to: each its own, so no resend wait or number limit applies. */
export const numberOf = (sequence: number) => `+5691${String(sequence).padStart(7, '0')}`;

/** Requests to a workspace of the gateway at `url` that `token` can use. */
export const calls = (url: string, token: string, workspace: string): Call[] => [
  {
    name: 'create',
    send: (n) => request(`${url}/api/v1/${workspace}/phone_verifications`, { token, json: { phone_number: numberOf(n) } }),
    ok: [201],
  },
  {
    name: 'create with Idempotency-Key',
    send: (n) =>
      request(`${url}/api/v1/${workspace}/phone_verifications`, {
        token,
        json: { phone_number: numberOf(n) },
        headers: { 'idempotency-key': `key-${n}` },
      }),
    ok: [201],
  },
  {
    name: 'verify',
    send: () => request(`${url}/api/v1/${workspace}/phone_verifications/pv_unknown/verify`, { token, json: { code: '123456' } }),
    ok: [404],
  },
  { name: 'workspaces', send: () => request(`${url}/cli/workspaces`, { token }), ok: [200] },
  { name: 'device token', send: () => request(`${url}/cli/device_authorizations/token`, { json: { device_code: 'unknown' } }), ok: [400] },
  { name: 'health', send: () => request(`${url}/healthz`), ok: [200] },
];
