export * from './env.ts';
export * from './lifecycle.ts';
export * from './logger.ts';
export * from './internal-auth.ts';
export * from './secret-key.ts';
export * from './core-loop.ts';
export * from './backoff.ts';
