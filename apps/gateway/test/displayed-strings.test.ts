import { request } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startPlatform, type TestPlatform } from './platform.ts';

let platform: TestPlatform;
let token: string;

beforeAll(async () => {
  platform = await startPlatform();
  token = await createUserWithToken(platform, 'ada@example.com');
});
afterAll(() => platform.stop());

const undisplayable = {
  NUL: 'build\u0000box',
  'a line break': 'build\nbox',
  'a C1 control': 'build\u0085box',
  'a lone high surrogate': 'build\uD800box',
  'a lone low surrogate': 'build\uDC00box',
  'a right-to-left override': 'exe.\u202Etxt',
  'a left-to-right embedding': '\u202Abuild',
  'a first-strong isolate': 'build\u2068box\u2069',
};

/** Each string people are shown, with the request that sets it. */
const fields = [
  {
    field: 'name',
    send: (value: string) => request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme-shown', name: value } }),
  },
  // The device endpoints answer in OAuth's shape: the description names the field.
  {
    field: 'client_name',
    oauth: true,
    send: (value: string) => request(`${platform.url}/cli/device_authorizations`, { json: { client_name: value } }),
  },
  {
    field: 'hostname',
    oauth: true,
    send: (value: string) => request(`${platform.url}/cli/device_authorizations`, { json: { hostname: value } }),
  },
  {
    field: 'git.branch',
    send: (value: string) =>
      request(`${platform.url}/api/developer/v1/acme/deployments`, {
        token,
        json: { environment: 'preview', files: {}, git: { branch: value } },
      }),
  },
];

describe('strings shown to people', () => {
  for (const { field, send, oauth } of fields) {
    it.each(Object.entries(undisplayable))(`${field} with %s is 400 invalid_request naming the field`, async (_, value) => {
      const res = await send(value);
      expect(res.status).toBe(400);
      if (oauth)
        expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(new RegExp(`^${field}: `)) });
      else expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    });
  }

  it('takes names in any script, right-to-left ones and emoji included', async () => {
    const workspace = await request(`${platform.url}/cli/workspaces`, { token, json: { slug: 'acme-intl', name: 'Ñandú 名前 مرحبا 🚀' } });
    expect(workspace.status).toBe(201);
    expect(workspace.body.name).toBe('Ñandú 名前 مرحبا 🚀');
    const started = await request(`${platform.url}/cli/device_authorizations`, { json: { client_name: 'svc CLI', hostname: 'שרת-בנייה' } });
    expect(started.status).toBe(200);
  });
});
