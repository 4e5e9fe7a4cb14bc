import { createVerificationInput, verificationCreated, verificationView, verifyInput, verifyResult } from '@svc/domain';
import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';

const slugPath = z.object({ slug: z.string().max(100) });
const verificationPath = slugPath.extend({ id: z.string().max(100) });

export const verificationEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/:slug/phone_verifications',
    operationId: 'createPhoneVerification',
    summary:
      'Send a one-time code to a phone number through the workspace sender. A 201 means queued, not delivered. ' +
      'For a number with a pending verification, a fresh code is sent on the same id once the resend wait is over.',
    tags: ['phone verification'],
    auth: true,
    params: slugPath,
    body: createVerificationInput,
    idempotent: true,
    status: 201,
    response: { description: 'The code is queued for delivery', schema: verificationCreated },
    errors: [
      'workspace_not_found',
      'invalid_phone_number',
      'sender_not_configured',
      'resend_too_soon',
      'send_limit_exceeded',
      'idempotency_key_reused',
      'idempotency_key_in_progress',
    ],
    handle: ({ core, caller, params, body, idempotencyKey }) =>
      core.verifications.create.mutate(
        { workspace: params.slug, phone_number: body.phone_number, idempotency_key: idempotencyKey },
        caller,
      ),
  }),
  endpoint({
    method: 'post',
    path: '/api/v1/:slug/phone_verifications/:id/verify',
    operationId: 'verifyPhoneVerification',
    summary:
      'Check a code. Wrong: 422 with attempts_left (the fifth failure blocks). Blocked: 423 for every later code. ' +
      'Expired: 410. Already verified: 409 already_verified with verified: true.',
    tags: ['phone verification'],
    auth: true,
    params: verificationPath,
    body: verifyInput,
    idempotent: true,
    status: 200,
    response: { description: 'The code is right: the number is verified', schema: verifyResult },
    errors: [
      'workspace_not_found',
      'verification_not_found',
      'invalid_code',
      'incorrect_code',
      'verification_blocked',
      'verification_expired',
      'already_verified',
      'idempotency_key_reused',
      'idempotency_key_in_progress',
    ],
    handle: ({ core, caller, params, body, idempotencyKey }) =>
      core.verifications.verify.mutate({ workspace: params.slug, id: params.id, code: body.code, idempotency_key: idempotencyKey }, caller),
  }),
  endpoint({
    method: 'get',
    path: '/api/v1/:slug/phone_verifications/:id',
    operationId: 'getPhoneVerification',
    summary: 'A verification: status, attempts left, expiry and delivery status; never the code',
    tags: ['phone verification'],
    auth: true,
    params: verificationPath,
    status: 200,
    response: { description: 'The verification', schema: verificationView },
    errors: ['workspace_not_found', 'verification_not_found'],
    handle: ({ core, caller, params }) => core.verifications.get.query({ workspace: params.slug, id: params.id }, caller),
  }),
];
