import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** The orders the demo agent can look up. */
const orders: Record<string, { status: string; delivery_date: string; items: string[] }> = {
  'A-1001': { status: 'shipped', delivery_date: 'in 2 days', items: ['Trail runner, size 42'] },
  'A-1002': { status: 'being packed', delivery_date: 'in 4 days', items: ['City sneaker, size 38'] },
  'A-1003': { status: 'delivered', delivery_date: 'yesterday', items: ['Rain boot, size 40'] },
};

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

/**
 * A stand-in for a customer's backend, started by local mode: the demo agent's `order_status` tool calls it
 * with a bearer token from the environment's secrets.
 */
export function createDemoBackend(token: string): Server {
  const expected = Buffer.from(`Bearer ${token}`);
  return createServer((req, res) => {
    const presented = Buffer.from(req.headers.authorization ?? '');
    const authorized = presented.length === expected.length && timingSafeEqual(presented, expected);
    const match = /^\/orders\/([\w-]+)$/.exec(req.url ?? '');
    const order = match?.[1] ? orders[match[1].toUpperCase()] : undefined;
    const answer = !authorized
      ? json(401, { error: 'unauthorized' })
      : !match
        ? json(404, { error: 'not found' })
        : order
          ? json(200, { order_id: match[1]!.toUpperCase(), ...order })
          : json(404, { error: `no order ${match[1]}` });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
}
