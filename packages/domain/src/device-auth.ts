import { z } from 'zod';
import { emailAddress } from './email.ts';
import { displayText } from './display-text.ts';
import { nextCursor } from './pagination.ts';
import type { ErrorCode } from './errors.ts';

/** RFC 8628 choices (architecture.md, "Device authorization"). */
export const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';
export const userCodeLength = 8;
export const pollIntervalSeconds = 5;
export const slowDownStepSeconds = 5;
export const deviceAuthorizationLifetimeSeconds = 900;
export const deviceCodeGrantType = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * The device endpoints answer every error in OAuth's shape (RFC 6749 §5.2), `{"error","error_description"}`: a request
 * they cannot read is OAuth's `invalid_request` whatever its status (400, 413, 415), core out of reach is
 * `temporarily_unavailable`, and every other code (RFC 8628's token errors among them) keeps its own name.
 */
const oauthNames: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'invalid_request',
  payload_too_large: 'invalid_request',
  too_many_parameters: 'invalid_request',
  unsupported_media_type: 'invalid_request',
  unsupported_content_encoding: 'invalid_request',
  core_unavailable: 'temporarily_unavailable',
  internal_error: 'server_error',
};
export const oauthErrorName = (code: ErrorCode): string => oauthNames[code] ?? code;

export const startDeviceAuthorizationInput = z
  .object({
    client_id: displayText(z.string().max(100))
      .optional()
      .meta({ description: 'OAuth client identifier (RFC 8628 form body); named on the approval page when `client_name` is not sent' }),
    scope: z.string().max(1000).optional().meta({ description: "Accepted and ignored: a token acts with all of its user's access" }),
    email: emailAddress.optional(),
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
    client_id: z.string().max(100).optional().meta({ description: 'Accepted as OAuth clients send it; the device code alone is checked' }),
  })
  .meta({ id: 'DeviceTokenRequest' });

export const deviceToken = z.object({ access_token: z.string(), token_type: z.literal('Bearer') }).meta({ id: 'DeviceToken' });

/** An error of the device endpoints in OAuth's shape, for the given `error` values. */
export const oauthError = (names: [string, ...string[]]) =>
  z.object({ error: z.enum(names), error_description: z.string().meta({ description: 'A human sentence' }) });

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
