import { existsSync, readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

/**
 * How every package and app is built (`pnpm build`, each package's `build` script runs tsup with this config in its
 * own directory): each entry of its `exports` (the `development` source to the `default` file under dist/), and
 * src/main.ts for an app, bundled as ESM for Node 20. Dependencies, the workspace's packages included, stay
 * imports: a deployed app installs them, and each workspace package runs from its own dist/.
 */
type Exports = Record<string, { development?: string; default: string }>;
const { exports = {} } = JSON.parse(readFileSync('package.json', 'utf8')) as { exports?: Exports };

const entry: Record<string, string> = {};
for (const { development, default: built } of Object.values(exports)) {
  if (development) entry[built.replace(/^\.\/dist\//, '').replace(/\.js$/, '')] = development;
}
if (existsSync('src/main.ts')) entry.main = 'src/main.ts';

export default defineConfig({
  entry,
  format: 'esm',
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  silent: true,
});
