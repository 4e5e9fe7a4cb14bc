import { describe, expect, it } from 'vitest';
import { agentSlug, environmentForBranch, environmentName, publishInput, secretName, workspaceSlug } from '../src/index.ts';

const takes = (schema: { safeParse(value: unknown): { success: boolean } }, value: string) => schema.safeParse(value).success;

describe('workspace slugs', () => {
  it('take 3 to 40 lowercase letters, digits and inner dashes', () => {
    for (const slug of ['abc', 'acme-support', 'a1b', 'x'.repeat(40), '3m']) expect(takes(workspaceSlug, slug), slug).toBe(slug !== '3m');
  });

  it.each([
    ['two characters', 'ab'],
    ['41 characters', 'x'.repeat(41)],
    ['an uppercase letter', 'Acme'],
    ['a leading dash', '-acme'],
    ['a trailing dash', 'acme-'],
    ['an underscore', 'acme_support'],
    ['a dot', 'acme.support'],
    ['a space', 'acme support'],
  ])('refuse %s', (_what, slug) => {
    const parsed = workspaceSlug.safeParse(slug);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      '3-40 characters of lowercase letters, digits and dashes, starting and ending with a letter or digit',
    );
  });
});

describe('agent slugs', () => {
  it('take 2 to 40 lowercase letters, digits and inner dashes', () => {
    expect(takes(agentSlug, 'support')).toBe(true);
    expect(takes(agentSlug, 'a1')).toBe(true);
    expect(takes(agentSlug, 'x'.repeat(40))).toBe(true);
    expect(takes(agentSlug, 'x')).toBe(false);
    expect(takes(agentSlug, 'x'.repeat(41))).toBe(false);
    expect(takes(agentSlug, 'Support')).toBe(false);
    expect(takes(agentSlug, 'support-')).toBe(false);
  });
});

describe('environment names', () => {
  it('take 1 to 40 lowercase letters, digits and inner dashes', () => {
    expect(takes(environmentName, 'p')).toBe(true);
    expect(takes(environmentName, 'feat-refund-flow')).toBe(true);
    expect(takes(environmentName, 'x'.repeat(40))).toBe(true);
    expect(takes(environmentName, 'x'.repeat(41))).toBe(false);
    expect(takes(environmentName, 'feat/refund')).toBe(false);
    expect(takes(environmentName, '-live')).toBe(false);
    expect(takes(environmentName, '')).toBe(false);
  });

  it('are made from branch names so that each one made is taken', () => {
    const cases: [string | undefined, string][] = [
      ['feat/Refund-Flow', 'feat-refund-flow'],
      ['--main--', 'main'],
      ['___', 'preview'],
      [undefined, 'preview'],
      ['', 'preview'],
      [`${'a'.repeat(39)}-b-c`, 'a'.repeat(39)],
    ];
    for (const [branch, environment] of cases) {
      expect(environmentForBranch(branch), String(branch)).toBe(environment);
      expect(takes(environmentName, environment), environment).toBe(true);
    }
  });

  it('never publish live to itself, and publish preview when left out', () => {
    expect(publishInput.parse({})).toEqual({ from: 'preview' });
    expect(publishInput.safeParse({ from: 'live' }).success).toBe(false);
    expect(publishInput.safeParse({ from: 'live-2' }).success).toBe(true);
  });
});

describe('secret names', () => {
  it('are UPPER_SNAKE_CASE of up to 64 characters, starting with a letter', () => {
    expect(takes(secretName, 'API_KEY')).toBe(true);
    expect(takes(secretName, `A${'B'.repeat(63)}`)).toBe(true);
    expect(takes(secretName, `A${'B'.repeat(64)}`)).toBe(false);
    expect(takes(secretName, 'api_key')).toBe(false);
    expect(takes(secretName, '1_KEY')).toBe(false);
    expect(takes(secretName, '_KEY')).toBe(false);
  });
});
