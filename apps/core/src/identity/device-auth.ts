import { randomBytes, randomInt } from 'node:crypto';
import {
  type DeviceAuthorization,
  deviceAuthorizationLifetimeSeconds,
  DomainError,
  pollIntervalSeconds,
  slowDownStepSeconds,
  type StartDeviceAuthorizationInput,
  userCodeAlphabet,
  userCodeLength,
} from '@svc/domain';
import type { CoreConfig } from '../platform/config.ts';
import type { DeviceAuthorizationRecord } from './store.ts';
import type { Store } from '../store.ts';
import { deviceLoginMail } from './auth-mails.ts';
import type { Clock } from '../platform/clock.ts';
import type { IdentityService } from './service.ts';
import { newId } from '../platform/ids.ts';
import type { LoginLinkService } from './login-links.ts';
import type { Mailer } from '../platform/mail.ts';
import type { RateLimits } from '../platform/rate-limits.ts';
import { type Keyring, sha256 } from '../platform/secrets.ts';

/** A client polling this much early still counts as obeying the interval (timers fire a little early). */
const pollToleranceMs = 500;

export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** `bdfg-hjkl`, `BDFGHJKL` and `BDFG HJKL` are the same code; anything else is not one. */
export function normalizeUserCode(input: string): string | undefined {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  return code.length === userCodeLength && [...code].every((c) => userCodeAlphabet.includes(c)) ? code : undefined;
}

const newUserCode = () => Array.from({ length: userCodeLength }, () => userCodeAlphabet[randomInt(userCodeAlphabet.length)]).join('');

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** What the approval page shows of an authorization. */
export interface DeviceAuthorizationView {
  userCode: string;
  status: DeviceAuthorizationRecord['status'] | 'expired';
  clientName: string;
  hostname: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface DeviceAuthDeps {
  store: Store;
  keyring: Keyring;
  identity: IdentityService;
  loginLinks: LoginLinkService;
  mailer: Mailer;
  rateLimits: RateLimits;
  config: CoreConfig;
  clock: Clock;
}

const tokenError = (code: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant', message: string) =>
  new DomainError(code, message);

/** RFC 8628 device authorization, with the mailed-link variant of `svc login --email`. */
export function createDeviceAuthService({ store, keyring, identity, loginLinks, mailer, rateLimits, config, clock }: DeviceAuthDeps) {
  const isExpired = (record: DeviceAuthorizationRecord) => Date.parse(record.expiresAt) <= clock().getTime();

  // Whoever has a user code can approve its sign-in: only its HMAC is stored, and a code is found by its HMAC, as a
  // token by its hash (the rows of earlier versions, with the code in the clear, are left to expire: see schema.ts).
  // Labelled, so that it is never the HMAC of another kind of code the keyring signs.
  const userCodeHash = (code: string) => keyring.hmac(`user_code:${code}`);
  const findByCode = (code: string) => store.deviceAuthorizations.findByUserCodeHash(userCodeHash(code));

  /** The authorization of the code the user typed, and that code normalised (the record does not hold it). */
  async function findByUserCode(input: string, ip: string): Promise<{ record: DeviceAuthorizationRecord; code: string }> {
    const code = normalizeUserCode(input);
    const record = code ? await findByCode(code) : undefined;
    if (!code || !record) {
      await rateLimits.consume('userCodeEntry', ip, 'wrong codes');
      throw new DomainError('not_found', 'no sign-in request has this code; check it against your terminal');
    }
    return { record, code };
  }

  return {
    async start(input: StartDeviceAuthorizationInput, client: ClientInfo): Promise<DeviceAuthorization> {
      await rateLimits.consume('deviceStart', client.ip, 'sign-in requests from your address');
      if (input.email) await loginLinks.checkMailLimits(input.email, client.ip);
      const now = clock();
      const deviceCode = randomBytes(32).toString('base64url');
      let userCode = newUserCode();
      while (await findByCode(userCode)) userCode = newUserCode();
      const formatted = formatUserCode(userCode);
      const record: DeviceAuthorizationRecord = {
        id: newId('dev'),
        deviceCodeHash: sha256(deviceCode),
        userCodeHash: userCodeHash(userCode),
        status: 'pending',
        intervalSeconds: pollIntervalSeconds,
        lastPolledAt: null,
        expiresAt: new Date(now.getTime() + deviceAuthorizationLifetimeSeconds * 1000).toISOString(),
        clientName: input.client_name ?? 'svc CLI',
        clientHostname: input.hostname ?? null,
        clientIp: client.ip,
        clientUserAgent: client.userAgent,
        email: input.email?.toLowerCase() ?? null,
        userId: null,
        tokenId: null,
        decidedAt: null,
        createdAt: now.toISOString(),
      };
      const verificationUri = `${config.publicUrl}/device`;
      const complete = `${verificationUri}?user_code=${formatted}`;
      let mail;
      if (input.email) {
        const link = loginLinks.issue(input.email, `/device?user_code=${formatted}`);
        mail = { link: link.record, mail: mailer.compose(deviceLoginMail(link.record.email, formatted, link.url)) };
      }
      await store.deviceAuthorizations.create(record, mail);
      if (mail) void mailer.loop.kick();
      return {
        device_code: deviceCode,
        user_code: formatted,
        verification_uri: verificationUri,
        verification_uri_complete: complete,
        interval: pollIntervalSeconds,
        expires_in: deviceAuthorizationLifetimeSeconds,
        ...(mail ? { email_sent: true } : {}),
      };
    },

    /** The token poll (RFC 8628 §3.4-3.5). */
    async poll(deviceCode: string): Promise<{ access_token: string; token_type: 'Bearer' }> {
      const record = await store.deviceAuthorizations.findByDeviceCodeHash(sha256(deviceCode));
      if (!record) throw tokenError('invalid_grant', 'unknown device code');
      if (record.status === 'spent') {
        // A replayed device code: whoever holds it, the token it produced is no longer safe.
        if (record.tokenId && record.userId) await identity.revokeToken(record.userId, record.tokenId).catch(() => {});
        throw tokenError('invalid_grant', 'this device code was used already; its token is revoked');
      }
      if (isExpired(record)) throw tokenError('expired_token', 'the sign-in request expired; start again');
      const now = clock();
      if (record.lastPolledAt && now.getTime() - Date.parse(record.lastPolledAt) < record.intervalSeconds * 1000 - pollToleranceMs) {
        const intervalSeconds = record.intervalSeconds + slowDownStepSeconds;
        await store.deviceAuthorizations.update(record.id, { intervalSeconds, lastPolledAt: now.toISOString() });
        throw new DomainError('slow_down', `polling too fast; poll every ${intervalSeconds} s`, { details: { interval: intervalSeconds } });
      }
      await store.deviceAuthorizations.update(record.id, { lastPolledAt: now.toISOString() });
      if (record.status === 'pending') throw tokenError('authorization_pending', 'waiting for the user to approve');
      if (record.status === 'denied') throw tokenError('access_denied', 'the user denied this sign-in');
      const where = record.clientHostname ? `${record.clientName} on ${record.clientHostname}` : record.clientName;
      const { token, record: issued } = await identity.issueToken(record.userId ?? '', where);
      if (!(await store.deviceAuthorizations.spend(record.id, issued.id))) {
        await identity.revokeToken(issued.userId, issued.id);
        throw tokenError('invalid_grant', 'this device code was used already');
      }
      return { access_token: token, token_type: 'Bearer' };
    },

    /** The approval page's view of a code; wrong codes count against the client's IP. */
    async view(userCodeInput: string, ip: string): Promise<DeviceAuthorizationView> {
      const { record, code } = await findByUserCode(userCodeInput, ip);
      return {
        userCode: formatUserCode(code),
        status: record.status === 'pending' && isExpired(record) ? 'expired' : record.status,
        clientName: record.clientName,
        hostname: record.clientHostname,
        ip: record.clientIp,
        userAgent: record.clientUserAgent,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      };
    },

    /** Approve or Deny, by a signed-in user, from the approval page's POST. */
    async decide(userCodeInput: string, userId: string, decision: 'approved' | 'denied', ip: string): Promise<void> {
      const { record } = await findByUserCode(userCodeInput, ip);
      if (isExpired(record)) throw new DomainError('expired_token', 'this sign-in request expired; start again in your terminal');
      if (!(await store.deviceAuthorizations.decide(record.id, decision, userId, clock().toISOString()))) {
        throw new DomainError('invalid_grant', 'this sign-in request was already answered');
      }
    },
  };
}

export type DeviceAuthService = ReturnType<typeof createDeviceAuthService>;
