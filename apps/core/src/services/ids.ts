import { randomBytes } from 'node:crypto';
import { ulid } from 'ulid';

// ulid draws one random number per character; a pool of CSPRNG bytes makes that one syscall per 4 KiB.
let pool = randomBytes(4096);
let offset = 0;
function pooledRandom(): number {
  if (offset === pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  return (pool[offset++] as number) / 256;
}

/** The one id generator: a type prefix and a lowercase, time-ordered ULID (`ws_01jf...`). */
export function newId(prefix: string): string {
  return `${prefix}_${ulid(undefined, pooledRandom).toLowerCase()}`;
}
