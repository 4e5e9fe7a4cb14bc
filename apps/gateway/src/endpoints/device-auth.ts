import {
  deviceAuthorization,
  deviceCodeGrantType,
  deviceToken,
  deviceTokenInput,
  developerTokenList,
  DomainError,
  pageQuery,
  startDeviceAuthorizationInput,
} from '@svc/domain';
import { z } from 'zod';
import { anonymous } from '../core-client.ts';
import { endpoint } from '../http/endpoint.ts';
import { clientIp } from '../http/mount.ts';

const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export const deviceAuthEndpoints = [
  endpoint({
    method: 'post',
    path: '/cli/device_authorizations',
    operationId: 'startDeviceAuthorization',
    summary:
      'Start a device authorization (RFC 8628). With `email`, the service mails a sign-in link that lands on the ' +
      'same approval page, and answers `email_sent: true`.',
    tags: ['auth'],
    auth: false,
    body: startDeviceAuthorizationInput,
    bodyOptional: true,
    acceptsForm: true,
    oauth: true,
    responseHeaders: noStore,
    status: 200,
    response: { description: 'The codes and where to approve them', schema: deviceAuthorization },
    errors: ['email_not_configured', 'rate_limited'],
    handle: ({ core, body, req }) => {
      const { client_id: clientId, scope: _scope, ...request } = body;
      const client = { ip: clientIp(req), user_agent: req.get('user-agent') ?? '' };
      return core.deviceAuth.start.mutate({ ...request, client_name: request.client_name ?? clientId, client }, anonymous);
    },
  }),
  endpoint({
    method: 'post',
    path: '/cli/device_authorizations/token',
    operationId: 'pollDeviceToken',
    summary:
      'Poll for the token, at the given interval. Errors follow RFC 8628 §3.5 as `{"error":"...","error_description":"..."}` ' +
      'with 400: authorization_pending, slow_down (the interval grows by 5 s), access_denied, expired_token, invalid_grant.',
    tags: ['auth'],
    auth: false,
    body: deviceTokenInput,
    acceptsForm: true,
    oauth: true,
    responseHeaders: noStore,
    status: 200,
    response: { description: 'The developer token, returned once', schema: deviceToken },
    errors: ['authorization_pending', 'slow_down', 'access_denied', 'expired_token', 'invalid_grant', 'unsupported_grant_type'],
    handle: ({ core, body }) => {
      if (body.grant_type !== undefined && body.grant_type !== deviceCodeGrantType) {
        throw new DomainError('unsupported_grant_type', `grant_type must be ${deviceCodeGrantType}`);
      }
      return core.deviceAuth.token.mutate({ device_code: body.device_code }, anonymous);
    },
  }),
  endpoint({
    method: 'get',
    path: '/cli/tokens',
    operationId: 'listTokens',
    summary: "The caller's developer tokens (never their values), a page at a time, oldest first",
    tags: ['auth'],
    auth: true,
    query: pageQuery,
    status: 200,
    response: { description: 'The tokens', schema: developerTokenList },
    errors: [],
    handle: ({ core, caller, query }) => core.tokens.list.query(query, caller),
  }),
  endpoint({
    method: 'delete',
    path: '/cli/tokens/:id',
    operationId: 'revokeToken',
    summary: "Revoke one of the caller's tokens",
    tags: ['auth'],
    auth: true,
    params: z.object({ id: z.string().max(100) }),
    status: 204,
    response: { description: 'Revoked' },
    errors: ['not_found'],
    handle: ({ core, caller, params }) => core.tokens.revoke.mutate(params, caller),
  }),
];
