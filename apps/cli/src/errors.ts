/** Exit codes: 1 a failed request, 2 a usage error, 4 authentication needed (as `gh` does). */
export const exitCodes = { failure: 1, usage: 2, auth: 4 } as const;

/** A failure to print as one line and exit with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.failure,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
