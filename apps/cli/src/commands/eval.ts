import { setTimeout as sleep } from 'node:timers/promises';
import { runVerdict } from '@svc/digest';
import { environmentForBranch, type EvalResultView, type EvalRunDetailView, type EvalRunView, maxRepeat, startRunInput } from '@svc/domain';
import { type Command, InvalidArgumentError } from 'commander';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError, exitCodes } from '../errors.ts';
import { type RunProgress, type RunState, runProgress, silentProgress } from '../eval-progress.ts';
import { serverEvents } from '../event-stream.ts';
import { runSummary } from '../eval-summary.ts';
import { printJson } from '../output.ts';
import { currentBranch } from '../repo.ts';
import { resolveWorkspace } from '../workspace.ts';

const pollMs = 500;
/** Polls that may fail in a row (the network, a restarting gateway) before `svc eval` gives up watching. */
const pollRetries = 5;

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
        const events = () => api.eventStream(`${runs}/${encodeURIComponent(started.id)}/events`, interrupted.signal);
        let run = await watch(started, { detail, events }, interrupted.signal, options.json);
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

interface RunReads {
  detail: () => Promise<EvalRunDetailView>;
  /** The run's event stream, or undefined when there is none. */
  events: () => Promise<ReadableStream<Uint8Array> | undefined>;
}

/**
 * Follows the run until it finishes or Ctrl-C is pressed, showing its progress; answers its last state. The run's
 * event stream shows each case as it finishes; without one (an older server) or once it breaks, the run is polled.
 */
async function watch(started: EvalRunView, reads: RunReads, interrupted: AbortSignal, json: boolean): Promise<EvalRunDetailView> {
  const progress = json ? silentProgress : runProgress(started);
  try {
    if (await follow(started, reads, progress)) return await reads.detail();
    return await poll(reads.detail, progress, interrupted);
  } finally {
    progress.stop();
  }
}

/** Shows the run's events as they come: true once the run finished, false without a stream, when it broke, or on Ctrl-C. */
async function follow(started: EvalRunView, reads: RunReads, progress: RunProgress): Promise<boolean> {
  const body = await reads.events();
  if (!body) return false;
  const state: RunState = { ...started, results: [] };
  try {
    for await (const { event, data } of serverEvents(body)) {
      if (event === 'progress') Object.assign(state, data as Partial<EvalRunView>);
      else if (event === 'result') state.results.push(data as EvalResultView);
      else if (event === 'finished') return true;
      progress.update(state);
    }
  } catch {
    // A broken connection, or Ctrl-C: polling picks up from the run as it stands.
  }
  return false;
}

/** Polls the run until it finishes or Ctrl-C is pressed, showing its progress; answers its last state. */
async function poll(detail: () => Promise<EvalRunDetailView>, progress: RunProgress, interrupted: AbortSignal): Promise<EvalRunDetailView> {
  let failures = 0;
  for (;;) {
    const run = await detail().catch((error: unknown) => {
      // Only a failure to reach the server is worth another try; an answer with an error code is final.
      if (!(error instanceof CliError) || error.code !== undefined || ++failures > pollRetries) throw error;
      return undefined;
    });
    if (run) {
      failures = 0;
      progress.update(run);
      if (run.finished || interrupted.aborted) return run;
    }
    // Ctrl-C ends the wait at once; the next poll answers the state to cancel from.
    await sleep(pollMs, undefined, { signal: interrupted }).catch(() => undefined);
  }
}
