/**
 * Sends `count` requests together, as clients that each hold an open connection do. The connections are opened
 * first (one request each to `/healthz` at once), so the requests leave in one go and reach the gateway, and from
 * it core, together rather than one connection handshake apart.
 */
export async function atOnce<T>(gatewayUrl: string, count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  await Promise.all(Array.from({ length: count }, () => fetch(`${gatewayUrl}/healthz`).then((res) => res.arrayBuffer())));
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}
