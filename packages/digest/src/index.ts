export * from './flags-digest.ts';
export { reportLimits, type ReplayedCase } from './run-case.ts';
export * from './run-report.ts';
export * from './run-verdict.ts';
