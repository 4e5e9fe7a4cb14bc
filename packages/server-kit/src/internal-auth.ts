import { createHash, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The header on every call to core (the channel's upgrade, each HTTP call) that says it comes from the platform. */
export const internalTokenHeader = 'x-svc-internal';

/** The header of core's answer to the channel's upgrade that says how many calls it takes in a frame; none: any number. */
export const callsPerFrameHeader = 'x-svc-calls-per-frame';

/**
 * The token core's own processes present to core, derived from SVC_SECRET_KEY under its own label: it reveals
 * neither the key nor the other keys derived from it, and rotates with it.
 */
export function deriveInternalToken(secretKey: Buffer): string {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'svc/internal-token', 32)).toString('base64url');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A check of the token a caller presents, in constant time: both sides are hashed first, so neither the
 * token's bytes nor its length show in the time an answer takes.
 */
export function internalTokenCheck(secretKey: Buffer): (presented: string | string[] | undefined) => boolean {
  const expected = digest(deriveInternalToken(secretKey));
  return (presented) => typeof presented === 'string' && timingSafeEqual(digest(presented), expected);
}
