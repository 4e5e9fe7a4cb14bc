import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { RequestHandler } from 'express';
import { fixedHeaders } from './fixed-headers.ts';

/**
 * helmet's headers on every answer, with a policy the console's server-rendered pages need and nothing more: no
 * script at all, the one stylesheet from this origin, forms posting back here, and no framing (so the approval
 * page cannot be overlaid by another site). HSTS only where the public URL is https.
 *
 * The policy has no part that depends on the request (no nonces), so helmet runs once, as the gateway starts, and
 * every answer gets the headers it set then, rather than passing through helmet's dozen middlewares of its own, one
 * per header.
 */
export function securityHeaders(publicUrl: string): RequestHandler {
  const https = publicUrl.startsWith('https:');
  const headers = headersSetBy(
    helmet({
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
    }),
  );
  return fixedHeaders(headers);
}

/** The headers a middleware that only sets headers sets on an answer, once it has run to its end. */
function headersSetBy(middleware: ReturnType<typeof helmet>): [string, string][] {
  const headers: [string, string][] = [];
  const answer = { setHeader: (name: string, value: unknown) => headers.push([name, String(value)]), removeHeader: () => {} };
  let ran = false;
  middleware({} as IncomingMessage, answer as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    ran = true;
  });
  if (!ran) throw new Error('helmet did not set its headers at once');
  return headers;
}
