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

/** What hides or reorders shown text, marks included (U+200E, U+200F, U+061C), everywhere in a string. */
const hiding = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;

/**
 * Text we did not check on the way in (a User-Agent header) as it may be shown: each control character (C0 and
 * C1), lone surrogate and bidi control replaced by U+FFFD, so the reader sees that something was there.
 */
export const visibleText = (text: string): string => text.replace(hiding, '\uFFFD');
