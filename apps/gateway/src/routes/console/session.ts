import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@svc/domain';
import { parse, serialize } from 'cookie';
import type { Request, Response } from 'express';
import type { CallOptions, CoreClient } from '../../core-client.ts';

/**
 * On https the cookies carry the `__Host-` prefix: the browser then keeps them to this exact host, secure and
 * path-wide, so a sibling subdomain can neither plant a session nor defeat the sign-in forms' double submit.
 */
export const cookieNames = (secure: boolean) => {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}svc_session`, loginCsrf: `${prefix}svc_login_csrf` };
};

const cookies = (req: Request) => parse(req.headers.cookie ?? '');

export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface SignedIn {
  user: { id: string; email: string };
  csrf_token: string;
}

const csrfError = () => new DomainError('invalid_csrf_token', 'this form expired or did not come from svc; reload the page and try again');

/** A form POST must carry the session's CSRF token. */
export function checkCsrf(req: Request, expected: string): void {
  if (!sameToken((req.body as Record<string, string> | undefined)?.csrf_token, expected)) throw csrfError();
}

/** The console's session cookie and the sign-in forms' CSRF cookie, named for http or https. */
export function consoleSession(core: CoreClient, secure: boolean) {
  const names = cookieNames(secure);
  const attributes = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;

  /** Core calls on behalf of the console session in the request's cookie. */
  const caller = (req: Request): CallOptions => ({ context: { authorization: undefined, session: cookies(req)[names.session] } });

  return {
    caller,

    /** The signed-in user, or undefined (core answers unauthorized for no or an expired session). */
    async current(req: Request): Promise<SignedIn | undefined> {
      if (!cookies(req)[names.session]) return undefined;
      try {
        return await core.consoleAuth.current.query(undefined, caller(req));
      } catch {
        return undefined;
      }
    },

    set(res: Response, token: string, expiresAt: string): void {
      res.append('Set-Cookie', serialize(names.session, token, { ...attributes, expires: new Date(expiresAt) }));
    },

    clear(res: Response): void {
      res.append('Set-Cookie', serialize(names.session, '', { ...attributes, maxAge: 0 }));
    },

    /**
     * Before sign-in there is no session to bind a CSRF token to: the sign-in forms double-submit a random
     * token held in a cookie, so another site cannot sign a browser into an account of its choosing.
     */
    loginCsrf(req: Request, res: Response): string {
      const existing = cookies(req)[names.loginCsrf];
      if (existing) return existing;
      const token = randomBytes(24).toString('base64url');
      res.append('Set-Cookie', serialize(names.loginCsrf, token, attributes));
      return token;
    },

    checkLoginCsrf(req: Request): void {
      if (!sameToken((req.body as Record<string, string> | undefined)?.csrf_token, cookies(req)[names.loginCsrf])) throw csrfError();
    },
  };
}

export type ConsoleSession = ReturnType<typeof consoleSession>;
