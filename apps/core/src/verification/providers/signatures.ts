import { createHmac, timingSafeEqual } from 'node:crypto';

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Meta's `X-Hub-Signature-256`: `sha256=` and the HMAC-SHA256 of the raw body with the app secret. */
export function isValidMetaSignature(appSecret: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = `sha256=${createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex')}`;
  return equal(expected, header);
}

/**
 * Twilio's `X-Twilio-Signature`: base64 HMAC-SHA1, with the auth token, of the full callback URL
 * followed by each POST parameter's name and value, sorted by name.
 */
export function isValidTwilioSignature(authToken: string, url: string, params: URLSearchParams, header: string | undefined): boolean {
  if (!header) return false;
  const names = [...new Set(params.keys())].sort();
  const data =
    url +
    names
      .map((name) =>
        params
          .getAll(name)
          .map((value) => name + value)
          .join(''),
      )
      .join('');
  const expected = createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
  return equal(expected, header);
}
