export * from './platform.ts';
export * from './processes.ts';
// The apps the platform runs, for the tests that start one alone.
export { type RunningCore, startCore } from '@svc/core/bootstrap';
export { startRunner } from '@svc/eval-runner';
