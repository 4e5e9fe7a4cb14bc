import { fileURLToPath } from 'node:url';
import * as agents from './agents/tables.ts';
import * as digest from './digest/tables.ts';
import * as evals from './evals/tables.ts';
import * as flags from './flags/tables.ts';
import * as github from './github/tables.ts';
import * as identity from './identity/tables.ts';
import * as platform from './platform/tables.ts';
import * as verification from './verification/tables.ts';
import * as workspaces from './workspaces/tables.ts';
import type { DomainTables } from './platform/tables/render.ts';

const modules: Record<string, Record<string, unknown>> = {
  platform,
  identity,
  workspaces,
  verification,
  agents,
  flags,
  evals,
  github,
  digest,
};

/** Every domain's tables, in the order the generated schemas list them. */
export const domainTables: readonly DomainTables[] = Object.entries(modules).map(([name, exports]) => ({
  name,
  path: fileURLToPath(new URL(`./${name}/tables.ts`, import.meta.url)),
  exports,
}));
