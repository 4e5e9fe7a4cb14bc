import { Router } from 'express';
import type { Endpoint } from '../http/endpoint.ts';
import { openApiDocument } from '../openapi.ts';

/** `/openapi.json`: the document of the endpoints the app mounts, built once. */
export function openApiRoutes(endpoints: Endpoint[], publicUrl: string): Router {
  const document = openApiDocument(endpoints, publicUrl);
  const routes = Router();
  routes.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  return routes;
}
