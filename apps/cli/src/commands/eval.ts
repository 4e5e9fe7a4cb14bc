import { runVerdict } from '@svc/digest';
import { environmentForBranch, type EvalRunDetailView, type EvalRunView, maxRepeat, startRunInput } from '@svc/domain';
import { type Command, InvalidArgumentError } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError, exitCodes } from '../errors.ts';
import { runProgress, silentProgress } from '../eval-progress.ts';
import { runSummary } from '../eval-summary.ts';
import { printJson } from '../output.ts';
import { currentBranch } from '../repo.ts';
import { type FollowedRun, followRun } from '../run-watch.ts';
import { resolveWorkspace } from '../workspace.ts';

interface EvalOptions {
  env?: string;
  agent?: string;
  repeat?: number;
  minPass?: number;
}

function replays(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > maxRepeat) {
    throw new InvalidArgumentError(`expected a whole number from 1 to ${maxRepeat}.`);
  }
  return Number(value);
}

const optionNames: Record<string, string> = { environment: '--env', agent: '--agent', repeat: '--repeat', min_pass: '--min-pass' };

/** The run to start, checked here so a mistyped option is a usage error before anything is sent. */
async function startRequest(opts: EvalOptions) {
  if (opts.minPass !== undefined && opts.minPass > (opts.repeat ?? 1)) {
    throw new CliError('--min-pass must not exceed --repeat (1 when left out)', exitCodes.usage);
  }
  const environment = opts.env ?? environmentForBranch(await currentBranch());
  const parsed = startRunInput.safeParse({ environment, agent: opts.agent, repeat: opts.repeat, min_pass: opts.minPass });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CliError(`${optionNames[String(issue?.path[0])] ?? 'options'}: ${issue?.message}`, exitCodes.usage);
}

export function registerEval(program: Command): void {
  program
    .command('eval')
    .description("replay the workspace's eval cases against an environment; exits 1 when any case fails or errors")
    .option('--env <name>', "the environment (default: the current branch's, else preview)")
    .option('--agent <slug>', "only this agent's cases")
    .option('--repeat <n>', `replay each case n times, 1 to ${maxRepeat} (default: 1)`, replays)
    .option('--min-pass <k>', 'replays that must pass for a case to pass (default: all of them)', replays)
    .action(async (opts: EvalOptions, command: Command) => {
      const options = globalOptions(command);
      const request = await startRequest(opts);
      const { token } = await requireCredential(options.baseUrl);
      const workspace = await resolveWorkspace(command);
      const api = new Api(options.baseUrl, token);
      const runs = `/api/developer/v1/${encodeURIComponent(workspace)}/evals/runs`;

      // Listening before the run exists: a Ctrl-C while it starts still cancels it.
      const interrupted = new AbortController();
      const interrupt = () => interrupted.abort();
      process.once('SIGINT', interrupt);
      try {
        const started = await api.request<EvalRunView>('POST', runs, request);
        const links = {
          page: `${options.baseUrl}/w/${encodeURIComponent(workspace)}/evals/${encodeURIComponent(started.id)}`,
          markdown: `${options.baseUrl}${runs}/${encodeURIComponent(started.id)}.md`,
        };
        const detail = () => api.request<EvalRunDetailView>('GET', `${runs}/${encodeURIComponent(started.id)}`);
        if (!options.json) {
          const skipped = started.skipped ? `, ${started.skipped} skipped` : '';
          process.stderr.write(
            `Replaying ${started.cases} case${started.cases === 1 ? '' : 's'} on ${started.environment} (v${started.version.number})${skipped}: ${links.page}\n` +
              'Ctrl-C cancels the run.\n',
          );
        }
        let run = await watch(
          { api, path: `${runs}/${encodeURIComponent(started.id)}`, started, signal: interrupted.signal },
          options.json,
        );
        if (!run.finished) {
          await api.request('POST', `${runs}/${encodeURIComponent(started.id)}/cancel`).catch((error: unknown) => {
            if (!(error instanceof CliError && error.code === 'run_finished')) throw error;
          });
          run = await detail();
          if (options.json) printJson(run);
          else process.stderr.write(`Cancelled run ${run.id}: ${run.done} of ${run.cases} cases done. ${links.page}\n`);
          process.exitCode = exitCodes.interrupted;
          return;
        }
        if (options.json) printJson(run);
        else process.stdout.write(runSummary(run, links));
        process.exitCode = runVerdict(run) === 'passed' ? 0 : exitCodes.failure;
      } finally {
        process.off('SIGINT', interrupt);
      }
    });
}

/** Follows the run until it finishes or Ctrl-C is pressed, showing its progress; answers its last state. */
async function watch(followed: Omit<FollowedRun, 'update'>, json: boolean): Promise<EvalRunDetailView> {
  const progress = json ? silentProgress : runProgress(followed.started);
  try {
    return await followRun({ ...followed, update: (run) => progress.update(run) });
  } finally {
    progress.stop();
  }
}
