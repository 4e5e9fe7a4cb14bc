import { DomainError } from '@svc/domain';
import type { Request } from 'express';
import type { CoreClient } from '../core-client.ts';
import type { Endpoint } from './endpoint.ts';

export const missingToken = () => new DomainError('unauthorized', 'send Authorization: Bearer <token>');

/**
 * What the gateway answers for a request it refuses itself (a body it cannot read, a body, path or query parameter
 * or header its schema refuses): on an endpoint that needs a token, 401 when the request has none or one that core
 * does not take (unknown, revoked), whatever else is wrong with it, as if the token had been checked first. A caller
 * without a valid token so learns nothing of what the endpoint takes. Core is asked about the token on this path
 * only: a request the gateway takes goes on to core, whose procedures check the token before the rest of the call.
 */
export async function refusalOf(ep: Endpoint, core: CoreClient, req: Request, refusal: unknown): Promise<unknown> {
  if (!ep.auth) return refusal;
  const authorization = req.headers.authorization;
  if (!authorization) return missingToken();
  try {
    await core.auth.whoami.query(undefined, { context: { authorization } });
  } catch (error) {
    // Refused, or core out of reach: what checking the token first answers too.
    return error;
  }
  return refusal;
}
