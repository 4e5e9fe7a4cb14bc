import { CommanderError } from 'commander';
import { CliError, exitCodes } from './errors.ts';
import { printJson } from './output.ts';
import { buildProgram } from './program.ts';

const args = process.argv.slice(2);
const end = args.indexOf('--');
// Known before parsing, so that a usage error is JSON too.
const json = (end === -1 ? args : args.slice(0, end)).includes('--json');
const program = await buildProgram(args, { json });

try {
  // `svc` alone asks what it can do: the help, on stdout, and exit 0 (as `gh` does).
  if (args.length === 0) program.outputHelp();
  else await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    if (json) printJson(error.toJson());
    else process.stderr.write(`svc: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof CommanderError) {
    // Commander has printed the message (in JSON with --json); help and --version exit 0.
    process.exitCode = error.exitCode === 0 ? 0 : exitCodes.usage;
  } else {
    throw error;
  }
}
