import { defineConfig } from 'drizzle-kit';

/** The PostgreSQL store's migrations (SVC_DATABASE_URL); drizzle.config.ts has the SQLite store's. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/postgres/schema.ts',
  out: './drizzle-pg',
});
