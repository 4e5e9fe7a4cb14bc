import { describe, expect, it } from 'vitest';
import { emailAddress, inviteMemberInput } from '../src/index.ts';

describe('email addresses', () => {
  it.each(['ana@example.com', 'ana.maria+svc@mail.example.co', "o'brien@example.org", 'a_b-c@sub-domain.example.io'])(
    'takes %s',
    (value) => {
      expect(emailAddress.parse(value)).toBe(value);
    },
  );

  it.each([
    ['there is no @', 'ana.example.com'],
    ['there is nothing before the @', '@example.com'],
    ['the domain has no top-level domain', 'ana@localhost'],
    ['the top-level domain has a digit', 'ana@example.c0m'],
    ['a domain label starts with a dash', 'ana@-example.com'],
    ['a domain label ends with a dash', 'ana@example-.com'],
    ['a domain label is longer than 63 characters', `ana@${'a'.repeat(64)}.com`],
    ['the local part ends with a dot', 'ana.@example.com'],
    ['the local part has two dots in a row', 'ana..maria@example.com'],
    ['it has a space', 'ana maria@example.com'],
    ['it is an IP address', 'ana@127.0.0.1'],
  ])('refuses an address when %s', (_why, value) => {
    expect(emailAddress.safeParse(value).success).toBe(false);
  });

  it('takes an address of 254 characters and refuses one of 255', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.com`; // 195 characters
    const at254 = `${'x'.repeat(254 - domain.length - 1)}@${domain}`;
    expect(at254).toHaveLength(254);
    expect(emailAddress.safeParse(at254).success).toBe(true);
    expect(emailAddress.safeParse(`x${at254}`).success).toBe(false);
  });

  it('holds an invitation to the same rule', () => {
    expect(inviteMemberInput.safeParse({ email: 'ana@example.com', role: 'developer' }).success).toBe(true);
    expect(inviteMemberInput.safeParse({ email: 'ana@localhost', role: 'developer' }).success).toBe(false);
  });
});
