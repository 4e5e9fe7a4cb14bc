import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { fieldErrorCodes } from './errors.ts';

/** Failed attempts, in total across resends, that block a verification (spec section 8). */
export const maxFailedAttempts = 5;
export const codeLength = 6;

const phoneNumberMessage = 'expected a valid phone number in E.164 format, such as +56912345678';

/**
 * A phone number in E.164 (`+` and 7 to 15 digits, the first not 0) that libphonenumber-js finds valid. The E.164
 * shape is a pattern, which the OpenAPI document states; a number off it is not parsed (`abort`).
 */
export const phoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, { message: phoneNumberMessage, abort: true })
  .refine((value) => parsePhoneNumberFromString(value)?.isValid() === true, { message: phoneNumberMessage })
  .meta({
    example: '+56912345678',
    description: "E.164: a leading +, the country code and the number; a number its country's numbering plan allows",
  })
  .register(fieldErrorCodes, { code: 'invalid_phone_number' });

/** A one-time code as typed: 4 to 10 digits. */
export const otpCode = z
  .string()
  .regex(/^\d{4,10}$/, 'expected 4 to 10 digits')
  .meta({ example: '123456' })
  .register(fieldErrorCodes, { code: 'invalid_code' });

export const createVerificationInput = z.object({ phone_number: phoneNumber }).meta({ id: 'CreatePhoneVerification' });
export type CreateVerificationInput = z.infer<typeof createVerificationInput>;

export const verifyInput = z.object({ code: otpCode }).meta({ id: 'VerifyPhoneVerification' });

export const verificationPath = z.object({ slug: z.string().max(100), id: z.string().max(100) });

export const verificationCreated = z
  .object({ verification_id: z.string(), expires_at: z.iso.datetime() })
  .meta({ id: 'PhoneVerificationCreated' });
export type VerificationCreated = z.infer<typeof verificationCreated>;

export const verificationStatuses = ['pending', 'verified', 'blocked', 'expired'] as const;
export const deliveryStatuses = ['queued', 'sent', 'delivered', 'read', 'failed', 'not_sent'] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const verificationView = z
  .object({
    verification_id: z.string(),
    phone_number: phoneNumber,
    status: z.enum(verificationStatuses),
    attempts_left: z.number().int(),
    expires_at: z.iso.datetime(),
    delivery: z.object({
      status: z.enum(deliveryStatuses).meta({ description: '`not_sent` for a test number' }),
      error: z.string().nullable(),
      updated_at: z.iso.datetime(),
    }),
    test_number: z.boolean(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'PhoneVerification' });
export type VerificationView = z.infer<typeof verificationView>;

export const verifyResult = z.object({ verified: z.literal(true) }).meta({ id: 'PhoneVerificationVerified' });

/** Test numbers: a fixed code and no delivery, for integrators' own tests. */
export const testNumbersInput = z
  .object({
    test_numbers: z.array(z.object({ phone_number: phoneNumber, code: otpCode })).max(100),
  })
  .meta({ id: 'TestNumbers' });
export const testNumbersView = z.object({ test_numbers: z.array(z.object({ phone_number: z.string() })) }).meta({ id: 'TestNumberList' });

/** The `Idempotency-Key` request header: a retry with the same key gets the first final answer for 24 hours. */
export const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .meta({ description: 'Up to 255 characters; a retry with the same key within 24 hours gets the first final answer' });
