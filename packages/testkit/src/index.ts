export * from './http.ts';
export * from './temp-dirs.ts';
export * from './ports.ts';
export * from './fake-provider.ts';
export * from './browser-session.ts';
export * from './smtp.ts';
export * from './chromium.ts';
export * from './postgres.ts';
