import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops passing bytes either way, on the connections open and on new ones: the peer behind hangs, as when stopped. */
  hang(): void;
  /** Passes bytes again, those held first. */
  resume(): void;
  /**
   * Resets every open connection and refuses new ones (ECONNREFUSED), as a peer whose process exited does: a database
   * server that was stopped, or is restarting.
   */
  down(): Promise<void>;
  /** Accepts connections again, on the same port: the peer is back. */
  up(): Promise<void>;
  /** How many connections the proxy accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1 to `port` on 127.0.0.1 that can hang, as a server whose process is stopped (SIGSTOP) does, or
 * go down, as one that exited does.
 */
export async function startTcpProxy(port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let hung = false;
  let accepted = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (hung) socket.pause();
  };
  const server = createServer((client) => {
    accepted++;
    const upstream = connect(port, '127.0.0.1');
    client.pipe(upstream);
    upstream.pipe(client);
    // After pipe(), which resumes its source: a connection made while hung stays silent too.
    track(client);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (on: number) => new Promise<void>((resolve) => server.listen(on, '127.0.0.1', resolve));
  const stopListening = () =>
    new Promise<void>((resolve) => {
      // A reset, as the kernel answers for a process gone: not the orderly close of a peer that ended its session.
      for (const socket of sockets) socket.resetAndDestroy();
      if (server.listening) server.close(() => resolve());
      else resolve();
    });
  await listen(0);
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    get accepted() {
      return accepted;
    },
    hang() {
      hung = true;
      for (const socket of sockets) socket.pause();
    },
    resume() {
      hung = false;
      for (const socket of sockets) socket.resume();
    },
    down: stopListening,
    up: () => listen(bound),
    close: stopListening,
  };
}
