import { DomainError, invalidRequest } from '@svc/domain';
import type { Express } from 'express';
import type { CoreClient } from '../core-client.ts';
import type { Endpoint } from './endpoint.ts';

export function mountEndpoints(app: Express, core: CoreClient, endpoints: Endpoint[]): void {
  for (const ep of endpoints) {
    app[ep.method](ep.path, async (req, res) => {
      const authorization = req.headers.authorization;
      if (ep.auth && !authorization) throw new DomainError('unauthorized', 'send Authorization: Bearer <token>');
      const body = ep.body ? ep.body.safeParse(req.body) : undefined;
      if (body && !body.success) throw invalidRequest(body.error, 'body', ep.fieldCodes);
      const params = ep.params ? ep.params.safeParse(req.params) : undefined;
      if (params && !params.success) throw invalidRequest(params.error, 'path');
      const result = await ep.handle({
        body: body?.data,
        params: params?.data ?? {},
        req,
        core,
        caller: { context: { authorization } },
      });
      res.status(ep.status).json(result);
    });
  }
}
