import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concretePath, parameters, servedRoutes } from '../bad-input/routes.ts';
import { startPlatform, type TestPlatform } from '../platform.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.stop());

/** The console's pages for signed-in people only: the device approval, the tokens and every workspace page. */
const sessionPages = servedRoutes().filter(
  (route) => route.answers === 'page' && /^\/(device|tokens|w)(\/|$)/.test(route.path) && route.method !== 'HEAD',
);

/** Where a signed-out request is sent, or what it is answered instead. */
async function answer(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<string> {
  const response = await fetch(`${platform.url}${path}`, { method, headers, body, redirect: 'manual' });
  await response.body?.cancel();
  return response.status === 303 ? `303 ${response.headers.get('location')}` : String(response.status);
}

const signIn = (path: string) => `303 /login?next=${encodeURIComponent(path)}`;

describe('a signed-out visitor of a page for signed-in people is sent to sign in, whatever the request holds', () => {
  it('lists the pages', () => {
    expect(sessionPages.map((route) => `${route.method} ${route.path}`)).toEqual(
      expect.arrayContaining(['GET /device', 'POST /tokens/:id/revoke', 'POST /w/:workspace/members', 'GET /w/:workspace/flags']),
    );
  });

  it('a path that does not decode', async () => {
    const withParams = sessionPages.filter((route) => parameters(route).length > 0);
    const answers = await Promise.all(
      withParams.map(async (route) => {
        const path = concretePath(route, () => '%zz');
        return [path, await answer(route.method, path)];
      }),
    );
    expect(answers).toEqual(answers.map(([path]) => [path, signIn(path!)]));
  });

  it('a form body that cannot be read', async () => {
    const forms = sessionPages.filter((route) => route.method === 'POST');
    const manyFields = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const bodies: [string, Record<string, string>, string][] = [
      ['an unknown Content-Encoding', { ...form, 'content-encoding': 'x-unknown' }, 'a=1'],
      ['a body that is not what its Content-Encoding says', { ...form, 'content-encoding': 'gzip' }, 'a=1'],
      ['more than 1,000 fields', form, manyFields],
      ['a charset it does not read', { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' }, 'a=1'],
    ];
    const answers = await Promise.all(
      forms.flatMap((route) =>
        bodies.map(async ([what, headers, body]) => {
          const path = concretePath(route, (name) => (name === 'workspace' ? 'acme' : 'x1'));
          return [`${path} with ${what}`, await answer('POST', path, headers, body), path];
        }),
      ),
    );
    expect(answers).toEqual(answers.map(([request, , path]) => [request, signIn(path!), path]));
  });
});
