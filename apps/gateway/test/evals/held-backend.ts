import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A customer's backend on 127.0.0.1 that holds every request until released: a replay stays in progress meanwhile. */
export interface HeldBackend {
  url: string;
  /** Resolves once `count` requests are being held. */
  held(count: number): Promise<void>;
  /** Answers every held request, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startHeldBackend(body: unknown = { status: 'shipped' }): Promise<HeldBackend> {
  const waiting: ServerResponse[] = [];
  const wakers: (() => void)[] = [];
  let released = false;
  const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer((req, res) => {
    req.resume();
    if (released) return answer(res);
    waiting.push(res);
    for (const wake of wakers.splice(0)) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const release = () => {
    released = true;
    for (const res of waiting.splice(0)) answer(res);
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async held(count) {
      while (waiting.length < count) await new Promise<void>((resolve) => wakers.push(resolve));
    },
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
