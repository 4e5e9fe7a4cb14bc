import { fileURLToPath } from 'node:url';

/**
 * The committed migrations of each store, in folders beside src/ and dist/: this module is one level below the
 * package both as a source file and bundled into dist/.
 */
export const migrationsFolders = {
  sqlite: fileURLToPath(new URL('../drizzle', import.meta.url)),
  postgres: fileURLToPath(new URL('../drizzle-pg', import.meta.url)),
};
