import { readFileSync } from 'node:fs';

/** The console's one stylesheet, served at `stylesheetPath`: the pages' policy allows styles from there only. */
export const stylesheet = readFileSync(new URL('./console.css', import.meta.url), 'utf8');
export const stylesheetPath = '/console.css';
