import { CommanderError } from 'commander';
import { CliError, exitCodes } from './errors.ts';
import { buildProgram } from './program.ts';

const program = buildProgram();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CliError) {
    process.stderr.write(`svc: ${error.message}\n`);
    process.exitCode = error.exitCode;
  } else if (error instanceof CommanderError) {
    // Commander has printed the message; help and --version exit 0.
    process.exitCode = error.exitCode === 0 ? 0 : exitCodes.usage;
  } else {
    throw error;
  }
}
