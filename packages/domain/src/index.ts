export * from './errors.ts';
export * from './identity.ts';
export * from './workspaces.ts';
