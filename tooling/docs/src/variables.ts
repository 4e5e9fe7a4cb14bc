import { readEnv as readCoreEnv } from '@svc/core/env';
import { readEnv as readRunnerEnv } from '@svc/eval-runner/env';
import { readEnv as readGatewayEnv } from '@svc/gateway/env';
import { readEnv as readGithubAppEnv } from '@svc/github-app/env';
import { readEnv as readLocalEnv } from '@svc/local/env';
import { ConfigError, createLogger } from '@svc/server-kit';
import type { Tokens } from 'marked';
import { allTokens, tokensOf } from './documents.ts';

/** A variable's name as the processes read them: capitals, digits and underscores. */
const variableName = /^[A-Z][A-Z0-9_]*$/;

/**
 * The variables a reader of the environment looks at, found by handing it an environment that records every name
 * asked for and holds none: a schema reads each of its variables, set or not, before it finds what is missing.
 */
function variablesRead(read: (env: NodeJS.ProcessEnv) => unknown): string[] {
  const names = new Set<string>();
  const note = (key: string | symbol) => {
    if (typeof key === 'string' && variableName.test(key)) names.add(key);
  };
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_, key) => void note(key),
    has: (_, key) => (note(key), false),
  });
  try {
    read(env);
  } catch (error) {
    // An empty environment lacks what a process requires (SVC_SECRET_KEY, the GitHub App's credentials).
    if (!(error instanceof ConfigError)) throw error;
  }
  return [...names];
}

/** Every environment variable a process of the platform reads at start, by process. */
export function variablesByProcess(): Record<string, string[]> {
  return {
    core: variablesRead(readCoreEnv),
    gateway: variablesRead(readGatewayEnv),
    'eval runner': variablesRead(readRunnerEnv),
    'GitHub App': variablesRead(readGithubAppEnv),
    'pnpm start': variablesRead(readLocalEnv),
    'every process (its logger)': variablesRead((env) => createLogger('docs', env, { write: () => {} })),
  };
}

/** The variables a document's tables name in their first column, as code spans (`A`, or `A`, `B` on one row). */
export function variablesDocumented(path: string): string[] {
  const tables = allTokens(tokensOf(path)).filter((token): token is Tokens.Table => token.type === 'table');
  const firstCells = tables.flatMap((table) => table.rows.map((row) => row[0]!));
  const names = firstCells.flatMap((cell) =>
    allTokens(cell.tokens).flatMap((token) => (token.type === 'codespan' && variableName.test(token.text) ? [token.text] : [])),
  );
  return [...new Set(names)];
}
