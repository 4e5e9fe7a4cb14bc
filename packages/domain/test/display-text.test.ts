import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorkspaceInput, displayText, startDeviceAuthorizationInput, visibleText } from '../src/index.ts';

const shown = displayText(z.string());
const message = 'must not contain control characters, lone surrogates or bidi overrides';

describe('text shown to people', () => {
  it.each([
    ['plain text', 'Acme Support'],
    ['accents and other scripts', 'Soporte Ñandú · サポート'],
    ['an emoji, a surrogate pair', 'Acme 🚀'],
    ['a right-to-left script', 'دعم أكمي'],
    ['nothing', ''],
  ])('takes %s', (_what, value) => {
    expect(shown.parse(value)).toBe(value);
  });

  it.each([
    ['a NUL', 'acme\u0000'],
    ['a tab', 'acme\tsupport'],
    ['a newline', 'acme\nsupport'],
    ['an escape, as terminal colours start', '\u001B[31macme'],
    ['a DEL', 'acme\u007F'],
    ['a C1 control', 'acme\u0085'],
    ['a lone high surrogate', 'acme\uD83D'],
    ['a lone low surrogate', '\uDE80acme'],
    ['a right-to-left override', 'evil\u202Emoc.elgoog'],
    ['a left-to-right embedding', '\u202Aacme'],
    ['a first-strong isolate', 'acme\u2068x\u2069'],
  ])('refuses %s', (_what, value) => {
    const parsed = shown.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it("holds a workspace's name and a device's host name to it", () => {
    expect(createWorkspaceInput.safeParse({ slug: 'acme', name: 'Acme\u202E' }).success).toBe(false);
    expect(startDeviceAuthorizationInput.safeParse({ hostname: 'laptop\u0000' }).success).toBe(false);
    expect(startDeviceAuthorizationInput.safeParse({ hostname: 'ana-laptop.local' }).success).toBe(true);
  });

  it('shows unchecked text with each hiding character replaced, marks included', () => {
    expect(visibleText('curl\u0000/8\u202E\u200E\u061C ok')).toBe('curl\uFFFD/8\uFFFD\uFFFD\uFFFD ok');
    expect(visibleText('Mozilla/5.0 🚀')).toBe('Mozilla/5.0 🚀');
  });
});
