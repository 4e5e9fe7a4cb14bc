import type { z } from 'zod';

/**
 * Control characters, lone surrogates, and the bidi embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069): in a string people read, they hide or reorder what is shown, e.g. a host name that reads
 * as another on the approval page.
 */
const undisplayable = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

/** The one rule for every string the platform shows to people (names, client names, host names). */
export const displayText = <T extends z.ZodString>(schema: T) =>
  schema.refine((text) => !undisplayable.test(text), {
    message: 'must not contain control characters, lone surrogates or bidi overrides',
  });
