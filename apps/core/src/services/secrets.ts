import { createHash, timingSafeEqual } from 'node:crypto';
import { customAlphabet } from 'nanoid';

const base62 = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 40);

/** A fresh secret with a recognisable prefix (about 238 random bits), e.g. `svc_...`. */
export function generateSecret(prefix: string): string {
  return `${prefix}${base62()}`;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
