export * from './agents.ts';
export * from './device-auth.ts';
export * from './display-text.ts';
export * from './errors.ts';
export * from './identity.ts';
export * from './phone-verification.ts';
export * from './senders.ts';
export * from './workspaces.ts';
