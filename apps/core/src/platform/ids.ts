import { ulid } from 'ulid';
import { pooledRandomFraction } from './random.ts';

/** The one id generator: a type prefix and a lowercase, time-ordered ULID (`ws_01jf...`). */
export function newId(prefix: string): string {
  return `${prefix}_${ulid(undefined, pooledRandomFraction).toLowerCase()}`;
}
