export { startRunner } from './runner.ts';
