import type { Command } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { version } from '../version.ts';
import { resolveWorkspace } from '../workspace.ts';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the flags-to-fix loop to a coding agent: a Model Context Protocol server over stdio')
    .action(async (_opts, command: Command) => {
      const options = globalOptions(command);
      // Signed in and in a workspace before serving: a client shows a server that failed to start, with this reason.
      const { token } = await requireCredential(options.baseUrl);
      const workspace = await resolveWorkspace(command);
      const { createMcpServer } = await import('../mcp/server.ts');
      const { LineTransport } = await import('../mcp/line-transport.ts');
      const { requestScreen } = await import('../mcp/request-screen.ts');
      const { server, tools } = createMcpServer({ api: new Api(options.baseUrl, token), workspace, version });
      await server.connect(new LineTransport(requestScreen(tools)));
      // Served until the client closes stdin.
      await new Promise<void>((resolve) => process.stdin.once('close', resolve));
    });
}
