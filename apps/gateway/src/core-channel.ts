import type { ChannelAnswer, ChannelCall } from '@svc/core-client';
import { callsPerFrameHeader, internalTokenHeader } from '@svc/server-kit';
import WebSocket from 'ws';

interface Waiting {
  resolve(answer: ChannelAnswer): void;
  reject(error: Error): void;
  /** When the call gives up waiting (ms since the epoch). */
  deadline: number;
}

/** A call that failed before it left for core (core could not be reached): it did not run, and may go elsewhere. */
export class CallNotSentError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = 'CallNotSentError';
  }
}

export interface CoreChannelOptions {
  /** Presented on the channel's upgrade: core refuses a channel without it. */
  internalToken: string;
  /** How long a call waits for its answer: undici's default wait for a response, as over HTTP. */
  answerTimeoutMs?: number;
  /**
   * How long opening the channel may take, when other cores can take the calls: past it, a core that takes
   * connections but never answers counts as down. Unset: `silenceMs`.
   */
  openTimeoutMs?: number;
  /** How long a core that could not be reached is passed over while other cores can take the calls. */
  retryDownMs?: number;
  /**
   * How long core may leave a ping unanswered, or the channel's opening unfinished, before it counts as gone: a core
   * that stopped (SIGSTOP, a hung machine) keeps its connections open but answers nothing.
   */
  silenceMs?: number;
}

/** How long core may answer nothing, pings included, before its calls fail, unless told (SVC_CORE_SILENCE_MS). */
export const defaultCoreSilenceMs = 3_000;

/** The most a frame of answers may carry (a workspace's whole agent bundle is one answer). */
const maxFrameBytes = 64 * 1024 * 1024;

/**
 * The gateway's end of core's tRPC channel: one WebSocket to core, opened at the first call and again after it closes.
 * The calls made while the event loop's I/O callbacks run (the requests parsed together) leave together, in frames of
 * as many calls as core said it takes as the channel opened; answers come back in any order, by id. A call that was on
 * a channel when it closed fails (as an HTTP request to a core that went away fails): it is not sent again, since a
 * mutation may have run. A call that never left (the channel could not open) fails with CallNotSentError, and the
 * channel counts as down for `retryDownMs`.
 */
export class CoreChannel {
  private socket: WebSocket | undefined;
  private outbox: { id: number; frame: string }[] = [];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;
  private readonly answerTimeoutMs: number;
  private readonly headers: Record<string, string>;
  private readonly sweeper: NodeJS.Timeout;
  private readonly openTimeoutMs: number;
  private readonly retryDownMs: number;
  /** Until when the channel is passed over: its last attempt to open failed. */
  private downUntil = 0;
  private readonly silenceMs: number;
  /** How many calls core takes in a frame, as it said when the channel opened. */
  private callsPerFrame = Infinity;

  constructor(
    private readonly url: string,
    { internalToken, answerTimeoutMs = 300_000, openTimeoutMs, retryDownMs = 1_000, silenceMs = defaultCoreSilenceMs }: CoreChannelOptions,
  ) {
    this.answerTimeoutMs = answerTimeoutMs;
    this.openTimeoutMs = openTimeoutMs ?? silenceMs;
    this.silenceMs = silenceMs;
    this.retryDownMs = retryDownMs;
    this.headers = { [internalTokenHeader]: internalToken };
    this.sweeper = setInterval(() => this.expire(), Math.min(5_000, answerTimeoutMs)).unref();
  }

  /** False while the channel's last attempt to open failed, until `retryDownMs` after it. */
  get up(): boolean {
    return this.downUntil <= Date.now();
  }

  call(message: Omit<ChannelCall, 'id'>): Promise<ChannelAnswer> {
    if (this.closed) return Promise.reject(new Error('the core channel is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, deadline: Date.now() + this.answerTimeoutMs });
      const queued = this.outbox.push({ id, frame: JSON.stringify({ id, ...message }) });
      if (queued === 1) setImmediate(this.flush);
      else if (queued >= this.callsPerFrame) this.flush();
    });
  }

  /** Fails the calls still waiting and closes the channel for good. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    this.socket?.terminate();
    this.fail(new Error('the core channel is closed'));
  }

  private readonly flush = (): void => {
    if (this.outbox.length === 0) return;
    const socket = this.socket ?? this.open();
    if (socket.readyState !== WebSocket.OPEN) return; // sent on open
    socket.send(`[${this.outbox.map((call) => call.frame).join(',')}]`);
    this.outbox = [];
  };

  private open(): WebSocket {
    const socket = new WebSocket(this.url, {
      headers: this.headers,
      perMessageDeflate: false,
      maxPayload: maxFrameBytes,
      handshakeTimeout: this.openTimeoutMs,
    });
    let lastError: Error | undefined;
    let opened = false;
    // A ping every third of the silence allowed; a core that answered none for that long is gone. Its calls fail
    // then (503) rather than at their answer deadline, which long polls need to be long.
    let lastHeard = Date.now();
    const heartbeat = setInterval(() => {
      if (Date.now() - lastHeard > this.silenceMs) {
        lastError = new Error(`core stopped answering: nothing from it for ${this.silenceMs / 1000} s`);
        socket.terminate();
      } else if (socket.readyState === WebSocket.OPEN) socket.ping();
    }, this.silenceMs / 3).unref();
    socket.on('pong', () => (lastHeard = Date.now()));
    socket.on('upgrade', (res) => {
      const taken = Number(res.headers[callsPerFrameHeader]);
      this.callsPerFrame = Number.isInteger(taken) && taken > 0 ? taken : Infinity;
    });
    socket.on('open', () => {
      opened = true;
      lastHeard = Date.now();
      this.downUntil = 0;
      this.flush();
    });
    socket.on('message', (data: Buffer) => {
      lastHeard = Date.now();
      let answers: ChannelAnswer[];
      try {
        answers = JSON.parse(data.toString()) as ChannelAnswer[];
      } catch (error) {
        lastError = error as Error;
        socket.terminate();
        return;
      }
      for (const answer of answers) {
        this.waiting.get(answer.id)?.resolve(answer);
        this.waiting.delete(answer.id);
      }
    });
    socket.on('unexpected-response', (_req, res) => {
      // Core refuses a channel whose token is not derived from its own key: say so, rather than only "401".
      lastError = new Error(
        res.statusCode === 401
          ? "core refused the channel: the gateway's SVC_SECRET_KEY is not core's"
          : `core answered the channel's upgrade with HTTP ${res.statusCode}`,
      );
      socket.terminate();
    });
    socket.on('error', (error) => {
      lastError ??= error; // the first says why: terminating a refused upgrade adds one of its own
    });
    socket.on('close', (code, reason) => {
      clearInterval(heartbeat);
      if (this.socket === socket) this.socket = undefined;
      if (!opened) this.downUntil = Date.now() + this.retryDownMs;
      this.fail(lastError ?? new Error(`core closed the channel (${code}${reason.length ? `: ${reason.toString()}` : ''})`));
    });
    this.socket = socket;
    return socket;
  }

  /** Fails the calls that waited past their deadline: the oldest come first in the map. */
  private expire(): void {
    const now = Date.now();
    for (const [id, waiting] of this.waiting) {
      if (waiting.deadline > now) break;
      this.waiting.delete(id);
      waiting.reject(new Error(`core did not answer within ${this.answerTimeoutMs / 1000} s`));
    }
  }

  private fail(error: Error): void {
    const unsent = new Set(this.outbox.map((call) => call.id));
    this.outbox = [];
    for (const [id, waiting] of this.waiting) waiting.reject(unsent.has(id) ? new CallNotSentError(error) : error);
    this.waiting.clear();
  }
}
