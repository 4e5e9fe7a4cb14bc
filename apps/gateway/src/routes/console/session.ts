import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@svc/domain';
import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';
import type { CoreClient } from '../../core-client.ts';

export const sessionCookie = 'svc_session';
/** `__Host-` (https only) keeps a sibling subdomain from planting the cookie and defeating the double submit. */
const loginCsrfCookie = (secure: boolean) => (secure ? '__Host-svc_login_csrf' : 'svc_login_csrf');

export const cookies = (req: Request) => parse(req.headers.cookie ?? '');

export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Core calls on behalf of the console session in the request's cookie. */
export function sessionCaller(req: Request) {
  return { context: { authorization: undefined, session: cookies(req)[sessionCookie] } };
}

export interface SignedIn {
  user: { id: string; email: string };
  csrf_token: string;
}

/** The signed-in user, or undefined (core answers unauthorized for no or an expired session). */
export async function currentUser(core: CoreClient, req: Request): Promise<SignedIn | undefined> {
  if (!cookies(req)[sessionCookie]) return undefined;
  try {
    return await core.consoleAuth.current.query(undefined, sessionCaller(req));
  } catch {
    return undefined;
  }
}

/** A form POST must carry the session's CSRF token. */
export function checkCsrf(req: Request, expected: string): void {
  if (!sameToken((req.body as Record<string, string> | undefined)?.csrf_token, expected)) {
    throw new DomainError('invalid_csrf_token', 'this form expired or did not come from svc; reload the page and try again');
  }
}

/**
 * Before sign-in there is no session to bind a CSRF token to: the sign-in forms double-submit a random
 * token held in a cookie, so another site cannot sign a browser into an account of its choosing.
 */
export function loginCsrf(req: Request, res: Response, secure: boolean): string {
  const existing = cookies(req)[loginCsrfCookie(secure)];
  if (existing) return existing;
  const token = randomBytes(24).toString('base64url');
  res.append('Set-Cookie', serialize(loginCsrfCookie(secure), token, { httpOnly: true, sameSite: 'lax', secure, path: '/' }));
  return token;
}

export function checkLoginCsrf(req: Request, secure: boolean): void {
  if (!sameToken((req.body as Record<string, string> | undefined)?.csrf_token, cookies(req)[loginCsrfCookie(secure)])) {
    throw new DomainError('invalid_csrf_token', 'this form expired or did not come from svc; reload the page and try again');
  }
}

export function setSession(res: Response, token: string, expiresAt: string, secure: boolean): void {
  res.append(
    'Set-Cookie',
    serialize(sessionCookie, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(expiresAt) }),
  );
}

export function clearSession(res: Response, secure: boolean): void {
  res.append('Set-Cookie', serialize(sessionCookie, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 }));
}
