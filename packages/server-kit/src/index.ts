export * from './env.ts';
export * from './lifecycle.ts';
export * from './logger.ts';
export * from './exchange.ts';
