import type { LocalEnv } from './env.ts';

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
    lines.push(
      `  Dev token      ${token}`,
      `                 (saved in ${tokenFile}; user dev@example.com, workspace demo)`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer $(cat ${tokenFile})" ${env.publicUrl}/cli/workspaces`,
      `  SVC_TOKEN=$(cat ${tokenFile}) pnpm svc workspaces`,
    );
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
