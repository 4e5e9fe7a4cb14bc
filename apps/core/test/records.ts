import type { DeviceAuthorizationRecord } from '../src/store/auth-store.ts';

/** A pending device authorization of the CLI, named by `id`, with whatever else a test sets. */
export const deviceAuthorizationRecord = (
  record: Pick<DeviceAuthorizationRecord, 'id' | 'createdAt' | 'expiresAt'> & Partial<DeviceAuthorizationRecord>,
): DeviceAuthorizationRecord => ({
  deviceCodeHash: `hash_${record.id}`,
  userCode: record.id
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase()
    .padEnd(8, 'B')
    .slice(0, 8),
  status: 'pending',
  intervalSeconds: 5,
  lastPolledAt: null,
  clientName: 'svc CLI',
  clientHostname: null,
  clientIp: null,
  clientUserAgent: null,
  email: null,
  userId: null,
  tokenId: null,
  decidedAt: null,
  ...record,
});
