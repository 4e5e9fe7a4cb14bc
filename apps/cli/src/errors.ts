/** Exit codes: 1 a failed request, 2 a usage error, 4 authentication needed (as `gh` does), 130 stopped by Ctrl-C. */
export const exitCodes = { failure: 1, usage: 2, auth: 4, interrupted: 130 } as const;

/** A failure to print as one line and exit with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.failure,
    readonly code?: string,
    /** The server's error answer, as `--json` prints it (with its `issues`, `attempts_left`...). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'CliError';
  }

  /** The error as `--json` prints it on stdout: the server's answer, or the same envelope for the CLI's own errors. */
  toJson(): unknown {
    return this.body ?? { error: { code: this.code ?? (this.exitCode === exitCodes.usage ? 'usage' : 'failed'), message: this.message } };
  }
}
