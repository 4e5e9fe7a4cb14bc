/**
 * Node's options that run TypeScript entry points with the workspace's packages from their sources (their
 * `development` export), not dist/: tsx's loader and the `development` condition. For a checkout of the workspace,
 * where tsx is installed: local mode and tests.
 */
export const fromSources = (): string[] => ['--conditions=development', '--import', import.meta.resolve('tsx')];

/**
 * What follows `node` to run an app's entry point: `src/main.ts` from the sources, as `pnpm --filter <app> dev` runs
 * it, or a built `dist/main.js` as it is, as `pnpm --filter <app> start` does; `execArgv` first.
 */
export const appArguments = (entry: string, execArgv: readonly string[] = []): string[] => [
  ...execArgv,
  ...(entry.endsWith('.ts') ? fromSources() : []),
  entry,
];
