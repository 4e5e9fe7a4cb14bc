export { credentialsPath, storeToken } from './credentials.ts';
export { buildProgram } from './program.ts';
