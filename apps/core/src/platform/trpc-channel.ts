import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AnyRouter } from '@trpc/server';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { callsPerFrameHeader, validRequestId, withRequestId } from '@svc/server-kit';
import { z } from 'zod';
import { type CallAnswer, type CallOptions, createCaller } from './trpc-call.ts';

const call = z.object({
  id: z.number().int().nonnegative(),
  type: z.enum(['query', 'mutation']),
  path: z.string(),
  input: z.unknown().optional(),
  /** The caller's `Authorization` header. */
  authorization: z.string().optional(),
  /** The caller's console session. */
  session: z.string().optional(),
  /** The id of the request the call serves: on every line core logs for it. One that is not a request id is dropped. */
  requestId: z.string().optional().transform(validRequestId),
});
const frame = z.array(call);

/** One procedure call on the channel, with the credentials of the caller it is made for. */
export type ChannelCall = z.input<typeof call>;

/** The answer to the call with the same `id`. */
export type ChannelAnswer = CallAnswer & { id: number };

/** The most a frame may carry: calls whose inputs are as big as core takes over HTTP, many at once. */
const maxFrameBytes = 64 * 1024 * 1024;
/** How long a stopping core waits for the calls it is running before it closes their channels. */
const drainMs = 5_000;

export interface TrpcChannelOptions<TRouter extends AnyRouter> extends CallOptions<TRouter> {
  createContext: (authorization: string | undefined, session: string | undefined) => unknown;
  /** A channel broke the protocol (ws closes it). */
  onChannelError?: (error: Error) => void;
  /** How many calls the gateway may send in a frame, told it as the channel opens; any number when unset. */
  callsPerFrame?: number;
}

/**
 * tRPC calls from a gateway over one WebSocket, each with its caller's credentials, answered by id in any order.
 * Frames are JSON arrays: what one side has for the other once the event loop's I/O callbacks have run leaves in
 * one frame (setImmediate), so the answers of one group commit, or of the queries that came back together, share a
 * write. Against an HTTP request per call (its parsing, headers, objects and write on both ends), this cut the CPU
 * both processes spend on an API request by about a third. Procedures, middleware, input validation and error
 * formatting are tRPC's own, as over HTTP.
 */
export function createTrpcChannel<TRouter extends AnyRouter>({
  createContext,
  onChannelError,
  callsPerFrame,
  ...options
}: TrpcChannelOptions<TRouter>) {
  const answerCall = createCaller(options);
  const server = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes, perMessageDeflate: false });
  if (callsPerFrame !== undefined) server.on('headers', (headers) => headers.push(`${callsPerFrameHeader}: ${callsPerFrame}`));
  let running = 0;
  let drained: (() => void) | undefined;

  function serve(socket: WebSocket): void {
    let answers: string[] = [];
    const flush = () => {
      if (socket.readyState === socket.OPEN) socket.send(`[${answers.join(',')}]`);
      answers = [];
      if (running === 0) drained?.();
    };
    // An answer's JSON is a `ChannelAnswer`: the call's answer, an object, with the call's id put first.
    const answer = (id: number, body: string) => {
      if (answers.push(`{"id":${id},${body.slice(1)}`) === 1) setImmediate(flush);
    };
    // A frame that breaks the protocol closes its channel (ws does that); it must not take core down.
    socket.on('error', (error) => onChannelError?.(error));
    socket.on('message', (data: RawData) => {
      let calls: ChannelCall[];
      try {
        calls = frame.parse(JSON.parse(data.toString()));
      } catch {
        // Not the parser's message: it may quote the frame, credentials included.
        onChannelError?.(new Error('a frame is not a JSON array of calls'));
        socket.close(1007, 'a frame is a JSON array of calls');
        return;
      }
      for (const { id, type, path, input, authorization, session, requestId } of calls) {
        running++;
        const call = () =>
          answerCall(
            type,
            path,
            () => input,
            () => createContext(authorization, session),
          );
        void (requestId ? withRequestId(requestId, call) : call()).then(({ body }) => {
          running--;
          answer(id, body);
        });
      }
    });
  }

  return {
    /** Takes over an HTTP upgrade request for the channel. */
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      server.handleUpgrade(req, socket, head, serve);
    },
    /** Answers the calls that are running (for at most 5 s), then closes every channel. */
    async close(): Promise<void> {
      if (running > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      for (const socket of server.clients) socket.close(1001, 'core is stopping');
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
