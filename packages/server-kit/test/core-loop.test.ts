import { getEventListeners } from 'node:events';
import { expect, it, vi } from 'vitest';
import { createLogger, runCoreLoop } from '../src/index.ts';

it('leaves no abort listeners piling up on its signal while core stays out of reach', async () => {
  const stopping = new AbortController();
  let pings = 0;
  const loop = runCoreLoop({
    log: createLogger('test', { LOG_LEVEL: 'silent' }),
    pollMs: 1,
    signal: stopping.signal,
    messages: { connected: 'connected', refused: 'refused' },
    context: () => ({}),
    ping: async () => {
      pings++;
      throw new Error('core is out of reach');
    },
    work: async () => {},
  });
  await vi.waitFor(() => expect(pings).toBeGreaterThan(20));
  // At most the listener of the sleep under way: past the tenth, Node warns of a leak.
  expect(getEventListeners(stopping.signal, 'abort').length).toBeLessThanOrEqual(1);
  stopping.abort();
  await loop.done;
});
