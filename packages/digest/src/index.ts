export { type FlagsDigestInput, inFlagsDigest, renderFlagsDigest } from './flags-digest.ts';
export * from './flags-issue.ts';
export * from './pr-comment.ts';
export type { FinishedPreview } from './pr-comment-run.ts';
export { reportLimits, type ReplayedCase } from './run-case.ts';
export * from './run-report.ts';
export * from './run-verdict.ts';
export { passRate, passRateLine } from './pass-rate.ts';
export { type SharedCases, sharedCases, sharedCasesText } from './shared-cases.ts';
