import { describe, expect, it } from 'vitest';
import { createVerificationInput, invalidRequest, phoneNumber } from '../src/index.ts';

/** The messages a number is refused with, or an empty list when it is taken. */
const refusals = (value: unknown): string[] => {
  const parsed = phoneNumber.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

const expected = 'expected a valid phone number in E.164 format, such as +56912345678';

describe('phone numbers in E.164', () => {
  it.each(['+56912345678', '+447911123456', '+4915123456789'])('takes %s, a number its country allows', (value) => {
    expect(phoneNumber.parse(value)).toBe(value);
  });

  it.each([
    ['the leading + is missing', '56912345678'],
    ['it has 16 digits, one more than E.164 allows', '+5691234567890123'],
    ['it has letters', '+5691234ABCD'],
    ['it has spaces', '+56 9 1234 5678'],
    ['the country code starts with 0', '+06912345678'],
    ['it is too short for any number', '+569123'],
    ['it is empty', ''],
  ])('refuses a number when %s, with one message showing the expected form', (_why, value) => {
    // A number off the E.164 shape is not looked up in the numbering plans: one message, not two.
    expect(refusals(value)).toEqual([expected]);
  });

  it("refuses a number of the right shape that its country's numbering plan does not allow", () => {
    expect(refusals('+56000000000')).toEqual([expected]);
  });

  it('refuses what is not a string', () => {
    expect(phoneNumber.safeParse(56912345678).success).toBe(false);
  });

  it('answers a bad number in a request with invalid_phone_number, naming the field', () => {
    const parsed = createVerificationInput.safeParse({ phone_number: '56912345678' });
    if (parsed.success) throw new Error('a number without + was taken');
    const error = invalidRequest(parsed.error, 'body', createVerificationInput);
    expect(error.toWire()).toMatchObject({ code: 'invalid_phone_number', field: 'phone_number', message: `phone_number: ${expected}` });
    expect(error.status).toBe(400);
  });
});
