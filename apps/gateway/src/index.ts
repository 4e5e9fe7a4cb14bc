export { createGatewayApp } from './app.ts';
export { startGateway } from './bootstrap.ts';
export { createCoreClient } from './core-client.ts';
