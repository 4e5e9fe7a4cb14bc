/**
 * Sends `count` requests together, as clients that each hold an open connection do. The connections are opened
 * first (one request each to `/healthz` at once), so the requests leave in one go and reach the gateway, and from
 * it core, together rather than one connection handshake apart. With several gateways, request `index` goes to
 * gateway `index % gateways.length`, whose connections are opened likewise.
 */
export async function atOnce<T>(gateways: string | string[], count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  const urls = [gateways].flat();
  await Promise.all(
    Array.from({ length: count }, (_, index) => fetch(`${urls[index % urls.length]}/healthz`).then((res) => res.arrayBuffer())),
  );
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}
