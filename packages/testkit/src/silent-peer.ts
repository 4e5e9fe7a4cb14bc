import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SilentPeer {
  /** `http://127.0.0.1:<port>`: point a client's base URL here (an SMTP URL takes the port). */
  url: string;
  port: number;
  /** How many connections it took, e.g. to see that a call was retried. */
  readonly connections: number;
  /** How many of them sent something (a request written), e.g. to count the sends that got no answer. */
  readonly written: number;
  close(): Promise<void>;
}

/**
 * A peer that takes every connection on 127.0.0.1 and never says a word, as a hung server or one whose process is
 * stopped does (the kernel still accepts): what a client's deadline is for.
 */
export async function startSilentPeer(): Promise<SilentPeer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let written = 0;
  const server = createServer((socket) => {
    connections++;
    socket.once('data', () => written++);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    get written() {
      return written;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
