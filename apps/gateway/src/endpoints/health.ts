import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';

const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const healthEndpoints = [
  endpoint({
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Ready: the gateway answers and reaches core',
    tags: ['operations'],
    auth: false,
    status: 200,
    response: { description: 'Core answered', schema: health },
    errors: ['core_unavailable'],
    handle: async ({ core }) => {
      await core.health.ping.query();
      return { status: 'ok' as const };
    },
  }),
];
