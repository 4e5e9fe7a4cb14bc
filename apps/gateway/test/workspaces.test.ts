import { request } from '@svc/testkit';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let platform: TestPlatform;
let ada: string;
let bob: string;

beforeAll(async () => {
  platform = await startPlatform();
  ada = await createUserWithToken(platform, 'ada@example.com');
  bob = await createUserWithToken(platform, 'bob@example.com');
});
afterAll(() => platform.stop());

describe('/cli/workspaces', () => {
  it('creates a workspace owned by the caller and lists it', async () => {
    const created = await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug: 'acme', name: 'Acme Inc' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ slug: 'acme', name: 'Acme Inc', role: 'owner', created_at: expect.any(String) });
    expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);

    await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug: 'a-1' } });
    const list = await request(`${platform.url}/cli/workspaces`, { token: ada });
    expect(list.status).toBe(200);
    expect(list.body.workspaces.map((w: { slug: string; name: string | null }) => [w.slug, w.name])).toEqual([
      ['a-1', null],
      ['acme', 'Acme Inc'],
    ]);
  });

  it("shows nobody else's workspaces", async () => {
    const list = await request(`${platform.url}/cli/workspaces`, { token: bob });
    expect(list.body).toEqual({ workspaces: [] });
  });

  it('answers 409 slug_taken for a slug anyone has', async () => {
    await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug: 'taken' } });
    const again = await request(`${platform.url}/cli/workspaces`, { token: bob, json: { slug: 'taken' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('slug_taken');
  });

  it.each([
    ['ab', 'too short'],
    ['-abc', 'leading dash'],
    ['abc-', 'trailing dash'],
    ['Acme', 'upper case'],
    ['a'.repeat(41), 'too long'],
    ['ac_me', 'underscore'],
  ])('rejects the slug %j (%s) with invalid_request naming the field', async (slug) => {
    const res = await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'slug' });
    expect(res.body.error.message).toMatch(/^slug: /);
  });

  it('accepts slugs of 3 and 40 characters', async () => {
    for (const slug of ['abc', `a${'b'.repeat(38)}c`]) {
      expect((await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug } })).status).toBe(201);
    }
  });

  it('tells the caller who they are', async () => {
    const me = await request(`${platform.url}/cli/whoami`, { token: bob });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('bob@example.com');
    expect(me.body.token).toMatchObject({ name: 'test token' });
    expect(JSON.stringify(me.body)).not.toContain(bob);
  });
});

describe('/cli/workspaces/:workspace', () => {
  it("shows one of the caller's workspaces", async () => {
    await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug: 'mine' } });
    const res = await request(`${platform.url}/cli/workspaces/mine`, { token: ada });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: 'mine', role: 'owner' });
  });

  it('answers the same 404 workspace_not_found for a missing workspace and for a stranger', async () => {
    await request(`${platform.url}/cli/workspaces`, { token: ada, json: { slug: 'private' } });
    const stranger = await request(`${platform.url}/cli/workspaces/private`, { token: bob });
    const missing = await request(`${platform.url}/cli/workspaces/no-such-thing`, { token: bob });
    expect(stranger.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(stranger.body.error.code).toBe('workspace_not_found');
    expect(stranger.body.error.message.replace('private', 'X')).toBe(missing.body.error.message.replace('no-such-thing', 'X'));
  });
});
