import { z } from 'zod';
import type { ErrorCode } from './errors.ts';

const retryAfterSeconds = z.number().int().min(1).meta({ description: 'Seconds to wait; the `Retry-After` header says the same' });

export const manifestIssue = z
  .object({
    file: z.string().meta({ description: 'The file at fault, relative to the repository root' }),
    path: z.string().meta({ description: 'Where in the file, e.g. `tools[0].url`; empty for the file as a whole' }),
    message: z.string(),
  })
  .meta({ id: 'ManifestIssue' });

/**
 * The members some errors carry at the top level of the body, beside `error`: a client reads `attempts_left` or
 * `retry_after_seconds` without parsing a message.
 */
export const errorDetails: Partial<Record<ErrorCode, z.ZodObject>> = {
  incorrect_code: z.object({ verified: z.literal(false), attempts_left: z.number().int().min(0) }),
  verification_blocked: z.object({ verified: z.literal(false), attempts_left: z.literal(0) }),
  verification_expired: z.object({ verified: z.literal(false) }),
  already_verified: z.object({ verified: z.literal(true) }),
  resend_too_soon: z.object({ verification_id: z.string(), expires_at: z.iso.datetime(), retry_after_seconds: retryAfterSeconds }),
  send_limit_exceeded: z.object({ retry_after_seconds: retryAfterSeconds }),
  rate_limited: z.object({ retry_after_seconds: retryAfterSeconds }),
  invalid_manifest: z.object({ issues: z.array(manifestIssue).min(1) }),
  already_flagged: z.object({ flag_id: z.string().meta({ description: 'The live flag of this reply' }) }),
  judge_family_conflict: z.object({
    agent_model: z.string().meta({ description: "The agent's model" }),
    judges: z.array(z.string()).meta({ description: 'The judge models configured, none of another family' }),
  }),
  slow_down: z.object({ interval: z.number().int().meta({ description: 'The new polling interval, in seconds' }) }),
};
