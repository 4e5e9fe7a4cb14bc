import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '@svc/domain';
import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';

const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** A load balancer's probe must get an answer in time even from a core that accepts connections but never answers. */
export const healthTimeoutMs = 1_500;

export const healthEndpoints = [
  endpoint({
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: `Ready: the gateway answers and core answered it within ${healthTimeoutMs / 1000} s`,
    tags: ['operations'],
    auth: false,
    status: 200,
    response: { description: 'Core answered', schema: health },
    errors: ['core_unavailable'],
    handle: async ({ core }) => {
      const timeout = new AbortController();
      const late = sleep(healthTimeoutMs, undefined, { signal: timeout.signal }).then(() => {
        throw new DomainError('core_unavailable', `core did not answer within ${healthTimeoutMs / 1000} s`);
      });
      try {
        await Promise.race([core.health.ping.query(), late]);
      } finally {
        timeout.abort();
        late.catch(() => {}); // aborted: the ping answered first
      }
      return { status: 'ok' as const };
    },
  }),
];
