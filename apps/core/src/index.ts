// Clients (the gateway, the eval runner) import the router's type only.
export type { AppRouter } from './root.ts';
export type { ChannelAnswer, ChannelCall } from './platform/trpc-channel.ts';
