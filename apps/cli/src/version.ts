import { readFileSync } from 'node:fs';

/** The CLI's version, as `svc --version` prints it and the MCP server names itself. */
export const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
