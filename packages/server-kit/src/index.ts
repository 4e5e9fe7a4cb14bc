export * from './env.ts';
export * from './lifecycle.ts';
export * from './logger.ts';
