import { z } from 'zod';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const portNumber = z.coerce
  .number({ error: 'expected a port number' })
  .int('expected a port number')
  .min(0, 'expected a port number from 0 to 65535')
  .max(65535, 'expected a port number from 0 to 65535');

export const port = (fallback: number) => portNumber.default(fallback);

/** A port that may be left unset (or empty): undefined then. */
export const optionalPort = z.preprocess((value) => (value === '' ? undefined : value), portNumber.optional());

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://localhost:8080' })
  .transform((url) => url.replace(/\/+$/, ''));

export const flag = z
  .enum(['1', '0', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

/** Variables whose value is a secret by name: keys, tokens, secrets and passwords. */
const secretName = /(KEY|TOKEN|SECRET|PASSWORD)(_|$)/i;

/**
 * A bad value as the error shows it, so the reader sees what was read: nothing of a secret's, and any URL with its
 * password masked (`smtp://ada:***@mail`, even when the URL is malformed).
 */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '';
  if (secretName.test(name)) return ' (its value is not shown: it is a secret)';
  return ` (got ${JSON.stringify(value.replace(/:[^:@/\s]*@/g, ':***@'))})`;
}

/**
 * Reads configuration from the environment through a zod schema and fails with one
 * message naming every bad variable, so a misconfigured process says why before it starts.
 */
export function loadEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.');
    return `  ${name}: ${issue.message}${shownValue(name, env[name])}`;
  });
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}
