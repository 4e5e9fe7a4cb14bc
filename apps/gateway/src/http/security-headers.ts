import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * helmet's headers on every answer, with a policy the console's server-rendered pages need and nothing more: no
 * script at all, the one stylesheet from this origin, forms posting back here, and no framing (so the approval
 * page cannot be overlaid by another site). HSTS only where the public URL is https.
 */
export function securityHeaders(publicUrl: string): RequestHandler {
  const https = publicUrl.startsWith('https:');
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: true } : false,
  });
}
