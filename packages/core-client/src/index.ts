export type { AppRouter, ChannelAnswer, ChannelCall } from './router.ts';
export * from './core-urls.ts';
export * from './http.ts';
