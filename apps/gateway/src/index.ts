export { createGatewayApp } from './app.ts';
export { startGateway } from './bootstrap.ts';
export { connectCoreChannel } from './core-client.ts';
