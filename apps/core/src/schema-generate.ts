import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { Dialect } from './platform/tables/define.ts';
import { domainTables } from './schema-domains.ts';
import { renderSchema } from './platform/tables/render.ts';

/** Where each dialect's drizzle schema is written: the modules the stores, drizzle-kit and the tests import. */
export const schemaPaths: Record<Dialect, string> = {
  sqlite: fileURLToPath(new URL('./platform/sqlite/schema.ts', import.meta.url)),
  postgres: fileURLToPath(new URL('./platform/postgres/schema.ts', import.meta.url)),
};

/** The drizzle schema module of `dialect`, formatted as the repository formats its sources. */
export async function generatedSchema(dialect: Dialect): Promise<string> {
  const path = schemaPaths[dialect];
  const options = (await resolveConfig(path)) ?? {};
  return format(renderSchema(domainTables, dialect), { ...options, filepath: path });
}
