import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops passing bytes either way, on the connections open and on new ones: the peer behind hangs, as when stopped. */
  hang(): void;
  /** Passes bytes again, those held first. */
  resume(): void;
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 to `port` on 127.0.0.1 that can hang, as a server whose process is stopped (SIGSTOP) does. */
export async function startTcpProxy(port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let hung = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (hung) socket.pause();
  };
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    client.pipe(upstream);
    upstream.pipe(client);
    // After pipe(), which resumes its source: a connection made while hung stays silent too.
    track(client);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hang() {
      hung = true;
      for (const socket of sockets) socket.pause();
    },
    resume() {
      hung = false;
      for (const socket of sockets) socket.resume();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
