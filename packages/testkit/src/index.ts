export * from './http.ts';
export * from './platform.ts';
export * from './ports.ts';
export * from './fake-provider.ts';
