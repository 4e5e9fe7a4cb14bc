import { writeFileSync } from 'node:fs';
import { generatedSchema, schemaPaths } from '../src/schema-generate.ts';

// Writes both stores' drizzle schemas from the tables of src/<domain>/tables.ts; `pnpm db:generate` runs it before
// drizzle-kit writes the migrations.
for (const dialect of ['sqlite', 'postgres'] as const) {
  writeFileSync(schemaPaths[dialect], await generatedSchema(dialect));
  console.log(`wrote ${schemaPaths[dialect]}`);
}
