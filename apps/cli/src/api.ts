import { CliError, exitCodes } from './errors.ts';

interface ErrorBody {
  /** The envelope, or OAuth's shape (the device endpoints): `{"error":"<code>","error_description":"..."}`. */
  error?: { code?: string; message?: string } | string;
  error_description?: string;
}

/** The error of an answer as the envelope has it, whichever shape it came in. */
function envelopeOf(body: ErrorBody | undefined): { code?: string; message?: string } | undefined {
  if (typeof body?.error === 'string') return { code: body.error, message: body.error_description };
  return body?.error;
}

/** A small JSON client for the gateway; every failure becomes a one-line CliError. */
export class Api {
  constructor(
    readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const text = new TextDecoder().decode(await this.send(method, path, 'application/json', body));
    return (text ? safeJson(text) : undefined) as T;
  }

  /** A document exactly as the server sent it, byte for byte: no decoding, so nothing is lost or added. */
  bytes(path: string, accept: string): Promise<Uint8Array> {
    return this.send('GET', path, accept);
  }

  /**
   * The body of an event stream (`text/event-stream`), or undefined when the server answers anything else (an older
   * one, without the endpoint) or cannot be reached: the caller then does without.
   */
  async eventStream(path: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array> | undefined> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { headers, signal });
      if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) return response.body;
      await response.body?.cancel();
    } catch {
      // Unreachable, or hung up: the same as no stream.
    }
    return undefined;
  }

  private async send(method: string, path: string, accept: string, body?: unknown): Promise<Uint8Array> {
    const headers: Record<string, string> = { accept };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch {
      throw new CliError(
        `cannot reach ${this.baseUrl}; is the server running? Another server: --base-url <url> or SVC_BASE_URL`,
        exitCodes.failure,
        'server_unreachable',
      );
    }
    if (response.ok) return bytes;
    const text = new TextDecoder().decode(bytes);
    const parsed = text ? (safeJson(text) as ErrorBody | undefined) : undefined;
    const error = envelopeOf(parsed);
    const code = error?.code;
    const message = error?.message ?? `${response.status} ${response.statusText}`;
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
