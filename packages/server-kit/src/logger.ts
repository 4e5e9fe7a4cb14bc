import { type DestinationStream, pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { z } from 'zod';
import { loadEnv } from './env.ts';
import { currentRequestId } from './request-id.ts';

export type { Logger };

/** Paths never written to a log, whatever the caller passes in. */
const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.token',
  '*.access_token',
  '*.code',
  '*.secret',
];

const logEnv = z.object({
  LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
      error: 'expected trace, debug, info, warn, error, fatal or silent',
    })
    .default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'expected json or pretty' }).default('json'),
});

/** The id of the request a line is written for (`request_id`), when it is written while serving one; a new object, which pino fills. */
const requestIdField = (): Record<string, unknown> => {
  const id = currentRequestId();
  return id === undefined ? {} : { request_id: id };
};

/**
 * The one logger: JSON lines, or human-readable lines when LOG_FORMAT=pretty (local mode).
 * LOG_LEVEL sets the level (default info). A bad LOG_LEVEL or LOG_FORMAT is a ConfigError naming it.
 * A line written while a request is served carries its id. Lines go to stdout unless `destination` is given.
 */
export function createLogger(name: string, env: NodeJS.ProcessEnv = process.env, destination?: DestinationStream): Logger {
  const { LOG_LEVEL, LOG_FORMAT } = loadEnv(logEnv, env);
  const options = { name, level: LOG_LEVEL, redact: { paths: redact, censor: '[redacted]' }, mixin: requestIdField };
  if (destination) return pino(options, destination);
  if (LOG_FORMAT === 'json') return pino(options);
  // A request line's message already says what its req, res and ms fields hold.
  return pino(options, pretty({ sync: true, ignore: 'pid,hostname,req,res,ms', translateTime: 'SYS:HH:MM:ss' }));
}
