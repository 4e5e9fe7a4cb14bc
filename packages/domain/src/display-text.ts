import type { z } from 'zod';

/**
 * Text that shows as written: no control character (C0, C1), lone surrogate, or bidi embedding, override or isolate
 * (U+202A-U+202E, U+2066-U+2069). In a string people read, they hide or reorder what is shown, e.g. a host name that
 * reads as another on the approval page. A pattern, so the OpenAPI document states it: written with ranges rather
 * than \p{Cc}, and taking a surrogate pair as a character, it means the same to a client reading it with or without
 * the `u` flag, or in another regex dialect.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const displayable = /^(?:[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/u;

/** The one rule for every string the platform shows to people (names, client names, host names). */
export const displayText = <T extends z.ZodString>(schema: T) =>
  schema.regex(displayable, 'must not contain control characters, lone surrogates or bidi overrides');

/** What hides or reorders shown text, marks included (U+200E, U+200F, U+061C), everywhere in a string. */
const hiding = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;

/**
 * Text we did not check on the way in (a User-Agent header) as it may be shown: each control character (C0 and
 * C1), lone surrogate and bidi control replaced by U+FFFD, so the reader sees that something was there.
 */
export const visibleText = (text: string): string => text.replace(hiding, '\uFFFD');
