export * from './bundle.ts';
export { EgressRefused, type EgressRules, egressRefusal } from './egress.ts';
export * from './knowledge.ts';
export * from './manifest.ts';
export { modelFamily } from './providers/family.ts';
export * from './runtime.ts';
export * from './runner-cache.ts';
export * from './tools.ts';
export type * from './transcript.ts';
