import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EvalCaseView } from '@svc/domain';
import { type Command, Option } from 'commander';
import { parse } from 'yaml';
import { Api } from '../api.ts';
import { globalOptions, requireCredential } from '../context.ts';
import { CliError, exitCodes } from '../errors.ts';
import { printJson, printTable } from '../output.ts';
import { everyItem } from '../pages.ts';
import { invokedFrom } from '../repo.ts';
import { resolveWorkspace } from '../workspace.ts';

async function context(command: Command) {
  const options = globalOptions(command);
  const { token } = await requireCredential(options.baseUrl);
  const workspace = await resolveWorkspace(command);
  const cases = `/api/developer/v1/${encodeURIComponent(workspace)}/evals/cases`;
  return { api: new Api(options.baseUrl, token), options, workspace, cases };
}

/** The case's question, its first visitor turn, on one line of at most `max` characters. */
function question(turns: string[], max = 60): string {
  const chars = Array.from((turns[0] ?? '').replace(/\s+/g, ' ').trim());
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : chars.join('');
}

const originOf = (c: EvalCaseView) => ('flag_id' in c.origin ? `flag ${c.origin.flag_id}` : c.origin.created_by);

/** The turns a file holds: a YAML (or JSON) list of the visitor's messages, oldest first. */
async function turnsFrom(file: string): Promise<unknown[]> {
  const path = resolve(invokedFrom(), file);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`, exitCodes.usage);
  });
  let turns: unknown;
  try {
    turns = parse(text);
  } catch (error) {
    throw new CliError(`${file} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`, exitCodes.usage);
  }
  if (!Array.isArray(turns)) throw new CliError(`${file} must hold a list of the visitor's messages, oldest first`, exitCodes.usage);
  return turns;
}

export function registerCases(program: Command): void {
  const cases = program.command('cases').description('the eval cases: those made from flags and those added by hand');

  cases
    .command('list')
    .description('every eval case: its id, agent and question (the first visitor turn)')
    .option('--agent <slug>', "only this agent's cases")
    .action(async (opts: { agent?: string }, command: Command) => {
      const { api, options, cases: path } = await context(command);
      const listed = await everyItem<EvalCaseView>(api, path, 'cases', { agent: opts.agent });
      if (options.json) return printJson({ cases: listed });
      if (listed.length === 0) return void process.stdout.write('No eval cases. Flag a reply with a note, or run `svc cases add`.\n');
      printTable(
        ['id', 'agent', 'turns', 'origin', 'question'],
        listed.map((c) => [c.id, c.agent, String(c.turns.length), originOf(c), question(c.turns)]),
      );
    });

  cases
    .command('add')
    .description('add an eval case by hand (any member): the visitor turns to replay and the outcome expected')
    .requiredOption('--agent <slug>', 'the agent, as its folder under agents/')
    .addOption(
      new Option('--turn <message>', "a visitor's message; repeat it for each, oldest first")
        .argParser((turn: string, turns: string[] = []) => [...turns, turn])
        .conflicts('file'),
    )
    .option('--file <path>', "a YAML or JSON file listing the visitor's messages, oldest first")
    .requiredOption(
      '--expected <outcome>',
      'what the agent should do or say; phrases in double quotes must appear in the reply without a judge model',
    )
    .action(async (opts: { agent: string; turn?: string[]; file?: string; expected: string }, command: Command) => {
      if (!opts.turn && !opts.file) throw new CliError('give the visitor turns: --turn "…" (repeated) or --file <path>', exitCodes.usage);
      const { api, options, cases: path } = await context(command);
      const turns = opts.turn ?? (await turnsFrom(opts.file!));
      const added = await api.request<EvalCaseView>('POST', path, { agent: opts.agent, turns, expected: opts.expected });
      if (options.json) return printJson(added);
      const count = `${added.turns.length} turn${added.turns.length === 1 ? '' : 's'}`;
      process.stdout.write(`Added eval case ${added.id} to ${added.agent} (${count}); every run replays it from now on.\n`);
    });

  cases
    .command('rm')
    .description("remove a case added by hand (yours, or anyone's for developers and owners); a flag's case goes with its flag")
    .argument('<id>', 'the case id, as `svc cases list` shows it')
    .action(async (id: string, _opts, command: Command) => {
      const { api, options, cases: path } = await context(command);
      await api.request('DELETE', `${path}/${encodeURIComponent(id)}`);
      if (options.json) return printJson({ id, removed: true });
      process.stdout.write(`Removed eval case ${id}.\n`);
    });
}
