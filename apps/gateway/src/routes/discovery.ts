import { deviceCodeGrantType } from '@svc/domain';
import { Router } from 'express';
import type { Endpoint } from '../http/endpoint.ts';

/**
 * `/.well-known/oauth-authorization-server`: the authorization server's metadata (RFC 8414), from which an OAuth
 * client (openid-client's `discovery()`, say) finds the device flow's endpoints. The issuer is the public URL.
 */
export function discoveryRoutes(endpoints: Endpoint[], publicUrl: string): Router {
  const issuer = publicUrl.replace(/\/+$/, '');
  const pathOf = (operationId: string) => endpoints.find((ep) => ep.operationId === operationId)?.path;
  const metadata = {
    issuer,
    device_authorization_endpoint: `${issuer}${pathOf('startDeviceAuthorization')}`,
    token_endpoint: `${issuer}${pathOf('pollDeviceToken')}`,
    grant_types_supported: [deviceCodeGrantType],
    // The device flow has no authorization endpoint, so no response type; clients are public, with no secret.
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['none'],
    service_documentation: `${issuer}/openapi.json`,
  };
  const routes = Router();
  routes.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(metadata);
  });
  return routes;
}
