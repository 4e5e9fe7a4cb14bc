import { DomainError } from '@svc/domain';
import express, { type RequestHandler } from 'express';

export const maxBodyBytes = 1024 * 1024;

const parseJson = express.json({ limit: maxBodyBytes });

/** Parses JSON bodies up to 1 MiB; any other body type is 415. A request without a body passes. */
export const jsonBody: RequestHandler = (req, res, next) => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody) {
    next();
    return;
  }
  if (!req.is('application/json')) {
    next(new DomainError('unsupported_media_type', 'send the body as application/json'));
    return;
  }
  parseJson(req, res, next);
};
