import { DomainError } from '@svc/domain';
import express, { type RequestHandler } from 'express';

export const maxBodyBytes = 1024 * 1024;

const parseJson = express.json({ limit: maxBodyBytes });
/** A `%` not followed by two hex digits: a form body no form encoder writes, refused rather than read literally. */
const malformedEscape = /%(?![0-9a-fA-F]{2})/;
const parseForm = express.urlencoded({
  limit: maxBodyBytes,
  extended: false,
  verify: (_req, _res, raw) => {
    if (malformedEscape.test(raw.toString('latin1')))
      throw Object.assign(new Error('malformed percent-escape'), { type: 'form.escape.malformed' });
  },
});

/**
 * Parses JSON bodies up to 1 MiB (and form bodies where `acceptsForm`); any other body type is 415.
 * A request without a body passes.
 */
export function bodyParser(acceptsForm = false): RequestHandler {
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) {
      next();
      return;
    }
    if (req.is('application/json')) {
      parseJson(req, res, next);
      return;
    }
    if (acceptsForm && req.is('application/x-www-form-urlencoded')) {
      parseForm(req, res, next);
      return;
    }
    const types = acceptsForm ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
    next(new DomainError('unsupported_media_type', `send the body as ${types}`));
  };
}

export const formBody = express.urlencoded({ limit: maxBodyBytes, extended: false });
