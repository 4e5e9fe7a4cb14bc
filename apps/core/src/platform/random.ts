import { randomBytes } from 'node:crypto';

// CSPRNG bytes drawn from a pool refilled 4 KiB at a time, as Node's own randomUUID() does: one call into OpenSSL
// per pool instead of one per use. Each byte is handed out once.
let pool = randomBytes(4096);
let offset = 0;

function take(size: number): number {
  if (offset + size > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += size;
  return offset - size;
}

/** `size` random bytes (at most 4096): a view that is the caller's alone. */
export function pooledRandomBytes(size: number): Buffer {
  const at = take(size);
  return pool.subarray(at, at + size);
}

/** A random number in [0, 1) with 8 bits of randomness, as ulid draws one per character. */
export function pooledRandomFraction(): number {
  return (pool[take(1)] as number) / 256;
}
