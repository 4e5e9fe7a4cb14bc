import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/platform/sqlite/schema.ts',
  out: './drizzle',
});
