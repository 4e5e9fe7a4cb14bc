import { ulid } from 'ulid';

/** The one id generator: a type prefix and a lowercase, time-ordered ULID (`ws_01jf...`). */
export function newId(prefix: string): string {
  return `${prefix}_${ulid().toLowerCase()}`;
}
