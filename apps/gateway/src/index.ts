export { createGatewayApp } from './app.ts';
export { startGateway } from './bootstrap.ts';
export { connectCore } from './core-client.ts';
