import { describe, expect, it } from 'vitest';
import {
  createWorkspaceInput,
  defaultPageLimit,
  idempotencyKey,
  maxPageLimit,
  optionalPageQuery,
  otpCode,
  pageQuery,
  pushInput,
  secretValueInput,
  sendMessageInput,
  testNumbersInput,
} from '../src/index.ts';

describe('pages', () => {
  it('hold 50 items unless told, and 1 to 100', () => {
    expect(defaultPageLimit).toBe(50);
    expect(maxPageLimit).toBe(100);
    expect(pageQuery.parse({})).toEqual({ limit: 50 });
    expect(optionalPageQuery.parse(undefined)).toEqual({ limit: 50 });
    expect(pageQuery.parse({ limit: 1 }).limit).toBe(1);
    expect(pageQuery.parse({ limit: 100 }).limit).toBe(100);
    for (const limit of [0, 101, -1, 2.5, 'many']) expect(pageQuery.safeParse({ limit }).success, String(limit)).toBe(false);
  });

  it('take a limit as a query string gives it', () => {
    expect(pageQuery.parse({ limit: '20' }).limit).toBe(20);
  });

  it("take a cursor of up to 300 URL-safe characters, a page's next_cursor", () => {
    expect(pageQuery.parse({ cursor: 'MDFKOVo_-x' }).cursor).toBe('MDFKOVo_-x');
    expect(pageQuery.safeParse({ cursor: 'c'.repeat(300) }).success).toBe(true);
    expect(pageQuery.safeParse({ cursor: 'c'.repeat(301) }).success).toBe(false);
    const parsed = pageQuery.safeParse({ cursor: 'a+b/c=' });
    expect(parsed.error?.issues[0]?.message).toBe('expected the next_cursor of a page of this list');
  });
});

describe('lengths', () => {
  it("bound a workspace's name to 100 characters after trimming, and refuse a blank one", () => {
    expect(createWorkspaceInput.parse({ slug: 'acme', name: `  ${'n'.repeat(100)}  ` }).name).toBe('n'.repeat(100));
    expect(createWorkspaceInput.safeParse({ slug: 'acme', name: 'n'.repeat(101) }).success).toBe(false);
    expect(createWorkspaceInput.safeParse({ slug: 'acme', name: '   ' }).success).toBe(false);
    expect(createWorkspaceInput.parse({ slug: 'acme' })).toEqual({ slug: 'acme' });
  });

  it('bound a message to an agent to 1 to 10,000 characters', () => {
    expect(sendMessageInput.safeParse({ text: 'x'.repeat(10_000) }).success).toBe(true);
    expect(sendMessageInput.safeParse({ text: 'x'.repeat(10_001) }).success).toBe(false);
    expect(sendMessageInput.safeParse({ text: '' }).success).toBe(false);
  });

  it("bound a secret's value to 1 to 10,000 characters", () => {
    expect(secretValueInput.safeParse({ value: 's'.repeat(10_000) }).success).toBe(true);
    expect(secretValueInput.safeParse({ value: 's'.repeat(10_001) }).success).toBe(false);
    expect(secretValueInput.safeParse({ value: '' }).success).toBe(false);
  });

  it("bound a deployment's file paths to 300 characters and its files to a million", () => {
    const push = (path: string, content = 'x') => pushInput.safeParse({ environment: 'preview', files: { [path]: content } }).success;
    expect(push(`agents/${'p'.repeat(293)}`)).toBe(true);
    expect(push(`agents/${'p'.repeat(294)}`)).toBe(false);
    expect(push('svc.yaml', 'x'.repeat(1_000_000))).toBe(true);
    expect(push('svc.yaml', 'x'.repeat(1_000_001))).toBe(false);
  });

  it('bound an Idempotency-Key to 1 to 255 characters', () => {
    expect(idempotencyKey.safeParse('k'.repeat(255)).success).toBe(true);
    expect(idempotencyKey.safeParse('k'.repeat(256)).success).toBe(false);
    expect(idempotencyKey.safeParse('').success).toBe(false);
  });

  it('take a code of 4 to 10 digits', () => {
    for (const code of ['1234', '123456', '1234567890']) expect(otpCode.safeParse(code).success, code).toBe(true);
    for (const code of ['123', '12345678901', '12a456', ' 123456']) expect(otpCode.safeParse(code).success, code).toBe(false);
  });

  it('take up to 100 test numbers', () => {
    const numbers = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ phone_number: `+569${String(10_000_000 + i)}`, code: '123456' }));
    expect(testNumbersInput.safeParse({ test_numbers: numbers(100) }).success).toBe(true);
    expect(testNumbersInput.safeParse({ test_numbers: numbers(101) }).success).toBe(false);
  });
});
