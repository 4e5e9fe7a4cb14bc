import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { customAlphabet } from 'nanoid';
import { pooledRandomBytes } from './random.ts';

const base62 = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 40);

/** A fresh secret with a recognisable prefix (about 238 random bits), e.g. `svc_...`. */
export function generateSecret(prefix: string): string {
  return `${prefix}${base62()}`;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The keys derived from SVC_SECRET_KEY: one to HMAC one-time codes, one to encrypt secrets at rest
 * (AES-256-GCM). Neither is the master key itself, so a leak of one use does not expose the other.
 */
export class Keyring {
  private readonly hmacKey: Buffer;
  private readonly encryptionKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length < 32) throw new Error('the secret key must be at least 32 bytes');
    this.hmacKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'svc/otp-hmac', 32));
    this.encryptionKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'svc/encryption', 32));
  }

  hmac(value: string): string {
    return createHmac('sha256', this.hmacKey).update(value).digest('hex');
  }

  encrypt(plaintext: string): string {
    const iv = pooledRandomBytes(12); // GCM needs a unique IV: 96 random bits
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  decrypt(sealed: string): string {
    const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
