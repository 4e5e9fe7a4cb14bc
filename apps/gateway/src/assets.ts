import { readFileSync } from 'node:fs';

/**
 * A file of the gateway's assets/ folder, which sits beside src/ and dist/: this module is one level below the
 * package both as a source file and bundled into dist/.
 */
export const readAsset = (name: string): string => readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
