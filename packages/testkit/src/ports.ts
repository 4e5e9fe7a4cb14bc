import { existsSync, readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * The ports the system hands out to outgoing connections (and to listen(0)), which a port picked there may go to
 * before the process told to use it listens: on Linux, ip_local_port_range.
 */
function ephemeralPorts(): [number, number] {
  const range = '/proc/sys/net/ipv4/ip_local_port_range';
  if (!existsSync(range)) return [32768, 60999];
  const [low, high] = readFileSync(range, 'utf8').trim().split(/\s+/).map(Number);
  return [low ?? 32768, high ?? 60999];
}

const [ephemeralLow] = ephemeralPorts();
/** Where free ports are picked: below the ephemeral range, where no outgoing connection takes one meanwhile. */
const pickFrom = Math.max(1024, Math.min(20_000, ephemeralLow - 5_000));

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A port that was free a moment ago, for processes that must be told their port up front. Picked at random below
 * the ephemeral range: a port the system chose could be given to a connection of another test before the process
 * listens on it ("port already in use" on a busy box).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100 && ephemeralLow - pickFrom >= 1_000; attempt++) {
    const port = randomInt(pickFrom, ephemeralLow);
    if (await bindable(port)) return port;
  }
  return systemPort(); // a system with no room below its ephemeral range
}

/** A port the system picks (listen(0)), free a moment ago. */
function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
