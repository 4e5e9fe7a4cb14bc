import { z } from 'zod';
import { displayText } from './display-text.ts';
import { nextCursor } from './pagination.ts';

/** RFC 8628 choices (architecture.md, "Device authorization"). */
export const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';
export const userCodeLength = 8;
export const pollIntervalSeconds = 5;
export const slowDownStepSeconds = 5;
export const deviceAuthorizationLifetimeSeconds = 900;
export const deviceCodeGrantType = 'urn:ietf:params:oauth:grant-type:device_code';

/** The RFC 8628 token errors; the token endpoint answers them in the RFC's shape, not the envelope. */
export const deviceTokenErrors = [
  'authorization_pending',
  'slow_down',
  'access_denied',
  'expired_token',
  'invalid_grant',
  'unsupported_grant_type',
  'invalid_request',
] as const;

export const startDeviceAuthorizationInput = z
  .object({
    email: z.email().max(254).optional(),
    client_name: displayText(z.string().max(100)).optional().meta({ description: 'Shown on the approval page, e.g. "svc CLI"' }),
    hostname: displayText(z.string().max(255)).optional().meta({ description: 'The host the client runs on' }),
  })
  .meta({ id: 'StartDeviceAuthorization' });
export type StartDeviceAuthorizationInput = z.infer<typeof startDeviceAuthorizationInput>;

export const deviceAuthorization = z
  .object({
    device_code: z.string(),
    user_code: z.string().meta({ example: 'BDFG-HJKL' }),
    verification_uri: z.url(),
    verification_uri_complete: z.url(),
    interval: z.number().int(),
    expires_in: z.number().int(),
    email_sent: z.boolean().optional(),
  })
  .meta({ id: 'DeviceAuthorization' });
export type DeviceAuthorization = z.infer<typeof deviceAuthorization>;

export const deviceTokenInput = z
  .object({
    device_code: z.string().min(1).max(200),
    grant_type: z
      .string()
      .optional()
      .meta({ description: `When sent, must be ${deviceCodeGrantType}` }),
  })
  .meta({ id: 'DeviceTokenRequest' });

export const deviceToken = z.object({ access_token: z.string(), token_type: z.literal('Bearer') }).meta({ id: 'DeviceToken' });

export const deviceTokenError = z
  .object({ error: z.enum(deviceTokenErrors), error_description: z.string().optional() })
  .meta({ id: 'DeviceTokenError' });

export const developerTokenView = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
    current: z.boolean().meta({ description: 'Whether this is the token making the request' }),
  })
  .meta({ id: 'DeveloperToken' });
export const developerTokenList = z
  .object({ tokens: z.array(developerTokenView).meta({ description: 'Oldest first' }), next_cursor: nextCursor })
  .meta({ id: 'DeveloperTokenList' });
export type DeveloperTokenView = z.infer<typeof developerTokenView>;
