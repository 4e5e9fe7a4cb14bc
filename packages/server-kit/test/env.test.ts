import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, createLogger, httpUrl, loadEnv, port } from '../src/index.ts';

const schema = z.object({ PORT: port(8080), SVC_PUBLIC_URL: httpUrl.optional() });

describe('loadEnv', () => {
  it('applies defaults and trims a trailing slash from URLs', () => {
    expect(loadEnv(schema, {})).toEqual({ PORT: 8080 });
    expect(loadEnv(schema, { PORT: '0', SVC_PUBLIC_URL: 'https://svc.example.com/' })).toEqual({
      PORT: 0,
      SVC_PUBLIC_URL: 'https://svc.example.com',
    });
  });

  it('names every bad variable with the value it got', () => {
    const attempt = () => loadEnv(schema, { PORT: '70000', SVC_PUBLIC_URL: 'ftp://x' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: expected a port number from 0 to 65535 \(got "70000"\)/);
    expect(attempt).toThrow(/SVC_PUBLIC_URL: expected an http\(s\) URL .*\(got "ftp:\/\/x"\)/);
  });
});

it('shows no value of a variable named as a secret (key, token, secret, password)', () => {
  const secrets = z.object({
    GITHUB_WEBHOOK_SECRET: z.string().min(20),
    WHATSAPP_TOKEN: z.string().min(20),
    SVC_SECRET_KEY: z.string().min(20),
  });
  const read = () => loadEnv(secrets, { GITHUB_WEBHOOK_SECRET: 'short-1', WHATSAPP_TOKEN: 'short-2', SVC_SECRET_KEY: 'short-3' });
  expect(read).toThrow(/GITHUB_WEBHOOK_SECRET: .*\(its value is not shown: it is a secret\)/);
  expect(read).toThrow(/WHATSAPP_TOKEN: .*\(its value is not shown/);
  expect(read).not.toThrow(/short-/);
});

describe('createLogger', () => {
  it('refuses a LOG_LEVEL or LOG_FORMAT it does not know, naming the variable', () => {
    expect(() => createLogger('core', { LOG_LEVEL: 'loud' })).toThrow(
      /LOG_LEVEL: expected trace, debug, info, warn, error, fatal or silent \(got "loud"\)/,
    );
    expect(() => createLogger('core', { LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    expect(createLogger('core', { LOG_LEVEL: 'warn' }).level).toBe('warn');
  });
});
