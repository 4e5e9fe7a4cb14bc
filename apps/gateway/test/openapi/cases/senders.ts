import { expect } from 'vitest';
import type { OperationCases } from '../world.ts';

const devSender = { kind: 'dev' };
const testNumbers = { test_numbers: [{ phone_number: '+56912345679', code: '654321' }] };

export const senderCases: OperationCases = {
  getSender: {
    sample: ({ token }) => ({ token, params: { workspace: 'acme' } }),
    async answers({ api, token }) {
      expect((await api.call('getSender', { token, params: { workspace: 'acme' } })).body.kind).toBe('whatsapp_cloud');
      expect((await api.call('getSender', { token, params: { workspace: 'bare' } })).body.error.code).toBe('sender_not_configured');
      expect((await api.call('getSender', { token, params: { workspace: 'nowhere' } })).body.error.code).toBe('workspace_not_found');
    },
  },
  putSender: {
    sample: ({ token }) => ({ token, params: { workspace: 'bare' }, json: devSender }),
    async answers({ api, token, supervisorToken }) {
      const sender = { kind: 'whatsapp_cloud', phone_number_id: '1234567890', access_token: 'EAAG-token', template: 'otp_code' };
      expect((await api.call('putSender', { token, params: { workspace: 'acme' }, json: sender })).status).toBe(200);
      const refused = await api.call('putSender', { token: supervisorToken, params: { workspace: 'acme' }, json: sender });
      expect(refused.body.error.code).toBe('forbidden');
      expect((await api.call('putSender', { token, params: { workspace: 'nowhere' }, json: sender })).body.error.code).toBe(
        'workspace_not_found',
      );
    },
  },
  listTestNumbers: {
    sample: ({ token }) => ({ token, params: { workspace: 'acme' } }),
    async answers({ api, token }) {
      expect((await api.call('listTestNumbers', { token, params: { workspace: 'acme' } })).status).toBe(200);
      const missing = await api.call('listTestNumbers', { token, params: { workspace: 'nowhere' } });
      expect(missing.body.error.code).toBe('workspace_not_found');
    },
  },
  putTestNumbers: {
    sample: ({ token }) => ({ token, params: { workspace: 'bare' }, json: testNumbers }),
    async answers({ api, token, supervisorToken }) {
      expect((await api.call('putTestNumbers', { token, params: { workspace: 'bare' }, json: testNumbers })).status).toBe(200);
      const put = (test_numbers: unknown) => api.call('putTestNumbers', { token, params: { workspace: 'bare' }, json: { test_numbers } });
      expect((await put([{ phone_number: '12345', code: '654321' }])).body.error).toMatchObject({
        code: 'invalid_phone_number',
        field: 'test_numbers.0.phone_number',
      });
      expect((await put([{ phone_number: '+56912345679', code: '12' }])).body.error).toMatchObject({
        code: 'invalid_code',
        field: 'test_numbers.0.code',
      });
      const refused = await api.call('putTestNumbers', { token: supervisorToken, params: { workspace: 'acme' }, json: testNumbers });
      expect(refused.body.error.code).toBe('forbidden');
      const missing = await api.call('putTestNumbers', { token, params: { workspace: 'nowhere' }, json: testNumbers });
      expect(missing.body.error.code).toBe('workspace_not_found');
    },
  },
};
