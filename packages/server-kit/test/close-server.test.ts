import { Agent, createServer, get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { closeServer, listen } from '../src/index.ts';

it('closes while a keep-alive client keeps polling on a connection that was busy at the close', async () => {
  let answered = 0;
  const server = createServer((_request, response) => {
    answered++;
    setTimeout(() => response.end('ok'), 50);
  });
  const port = await listen(server, 0, '127.0.0.1');
  // One connection, reused for every poll, as the eval runner's client reuses its connection to core.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let polling = true;
  const polls = (async () => {
    while (polling) {
      await new Promise<void>((done) =>
        get(`http://127.0.0.1:${port}/`, { agent }, (response) => response.resume().on('end', done)).on('error', () => done()),
      );
      await sleep(1);
    }
  })();
  await expect.poll(() => answered).toBeGreaterThan(1);
  // The close starts while a poll is under way; the answer to it, or to the next poll, ends the connection.
  const closed = await Promise.race([closeServer(server).then(() => 'closed'), sleep(10_000).then(() => 'still open')]);
  polling = false;
  await polls;
  agent.destroy();
  expect(closed).toBe('closed');
});
