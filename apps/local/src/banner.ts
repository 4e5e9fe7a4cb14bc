import { fileURLToPath } from 'node:url';
import type { LocalEnv } from './env.ts';

/** The CLI's entry in this checkout, which `pnpm start` has built. */
const svcBin = fileURLToPath(new URL('../../cli/bin/svc.js', import.meta.url));

/** A word as a POSIX shell reads it back: quoted only when it holds more than safe characters. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

export function banner(env: LocalEnv, token: string | undefined, tokenFile: string): string {
  const lines = [
    '',
    'svc is running in local mode',
    `  Gateway        ${env.publicUrl}`,
    ...(env.host === '127.0.0.1' ? [] : [`  Listening on   ${env.host} (HOST); the dev outbox and mailbox answer this machine only`]),
    `  OpenAPI        ${env.publicUrl}/openapi.json`,
    `  Dev outbox     ${env.publicUrl}/dev/outbox (codes the dev sender would have sent)`,
    `  Core           http://127.0.0.1:${env.corePort} (internal)`,
    `  Demo backend   http://127.0.0.1:${env.demoBackendPort} (the demo agent's tool calls it)`,
    `  Dev mailbox    ${env.publicUrl}/dev/mailbox`,
    `  Data           ${env.dataDir}`,
  ];
  if (token) {
    // Each command stands alone, from any folder of any shell: absolute paths, and the gateway this start chose.
    const readToken = `$(cat ${shellWord(tokenFile)})`;
    lines.push(
      `  Dev token      ${token}`,
      `                 (saved in ${tokenFile}; user dev@example.com, workspace demo)`,
      '',
      'Try, from any shell:',
      `  curl -H "Authorization: Bearer ${readToken}" ${env.publicUrl}/cli/workspaces`,
      `  SVC_BASE_URL=${env.publicUrl} SVC_TOKEN=${readToken} node ${shellWord(svcBin)} workspaces`,
    );
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
