import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

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

/**
 * The one logger: JSON lines, or human-readable lines when LOG_FORMAT=pretty (local mode).
 * LOG_LEVEL sets the level (default info).
 */
export function createLogger(name: string, env: NodeJS.ProcessEnv = process.env): Logger {
  const options = { name, level: env.LOG_LEVEL ?? 'info', redact: { paths: redact, censor: '[redacted]' } };
  if (env.LOG_FORMAT !== 'pretty') return pino(options);
  // A request line's message already says what its req, res and ms fields hold.
  return pino(options, pretty({ sync: true, ignore: 'pid,hostname,req,res,ms', translateTime: 'SYS:HH:MM:ss' }));
}
