import { createPostgresDatabase, holdLock, request } from '@svc/testkit';
import { expect, it } from 'vitest';
import { createUserWithToken, startPlatform } from '../testing/platform.ts';

it('answers 503 core_unavailable, not a hang, while another session holds a table locked; serves again once it is released', async () => {
  const databaseUrl = await createPostgresDatabase();
  const platform = await startPlatform({ databaseUrl, statementTimeoutMs: 1000 });
  const token = await createUserWithToken(platform, 'ada@example.com');
  const workspaces = `${platform.url}/cli/workspaces`;
  expect((await request(workspaces, { token, json: { slug: 'acme' } })).status).toBe(201);

  const lock = await holdLock(databaseUrl, 'lock table workspaces in access exclusive mode');
  try {
    // A write and a read of the locked table: each waits out core's statement deadline, then answers.
    for (const answer of [await request(workspaces, { token, json: { slug: 'globex' } }), await request(workspaces, { token })]) {
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('core_unavailable');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
  } finally {
    await lock.release();
  }
  expect((await request(workspaces, { token, json: { slug: 'globex' } })).status).toBe(201);
  expect((await request(workspaces, { token })).body.workspaces).toHaveLength(2);
  await platform.stop();
});
