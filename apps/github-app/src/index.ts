export { svcApp } from './app.ts';
export { createGithubAppServer, webhooksPath } from './server.ts';
