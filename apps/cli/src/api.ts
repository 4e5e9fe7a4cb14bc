import { CliError, exitCodes } from './errors.ts';

interface ErrorBody {
  error?: { code?: string; message?: string };
}

/** A small JSON client for the gateway; every failure becomes a one-line CliError. */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new CliError(`cannot reach ${this.baseUrl}; is the server running?`);
    }
    const text = await response.text();
    const parsed = text ? (safeJson(text) as T & ErrorBody) : undefined;
    if (response.ok) return parsed as T;
    const code = parsed?.error?.code;
    const message = parsed?.error?.message ?? `${response.status} ${response.statusText}`;
    const answer = parsed?.error ? parsed : undefined;
    if (response.status === 401) {
      throw new CliError(`${message} at ${this.baseUrl}: run \`svc login\` or set SVC_TOKEN`, exitCodes.auth, code, answer);
    }
    throw new CliError(code ? `${message} (${code})` : message, exitCodes.failure, code, answer);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
