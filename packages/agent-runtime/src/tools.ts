import { request } from 'undici';
import { EgressRefused, type EgressRules, egressDispatcher } from './egress.ts';
import { secretsOfTool, type ToolSpec } from './manifest.ts';

export interface ToolCallTrace {
  name: string;
  arguments: Record<string, unknown>;
  request: { method: string; url: string };
  status: number | null;
  /** What the customer's backend answered (parsed JSON when it was JSON), with secrets redacted. */
  response: unknown;
  error: string | null;
  duration_ms: number;
}

const maxResponseChars = 8_000;

/** Fills `{{secrets.NAME}}` and `{{args.NAME}}`; argument values are URL-encoded where they go into a URL. */
function render(template: string, secrets: Record<string, string>, args: Record<string, unknown>, encode: boolean): string {
  return template.replace(/\{\{\s*(secrets|args)\.([\w-]+)\s*\}\}/g, (_, scope: string, name: string) => {
    if (scope === 'secrets') return secrets[name] ?? '';
    const value = args[name];
    const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    return encode ? encodeURIComponent(text) : text;
  });
}

/** Replaces every secret's value with `[secret:NAME]`, wherever it appears. */
export function redact<T>(value: T, secrets: Record<string, string>): T {
  let text = JSON.stringify(value);
  if (text === undefined) return value;
  for (const [name, secret] of Object.entries(secrets)) {
    if (secret.length >= 4) text = text.split(JSON.stringify(secret).slice(1, -1)).join(`[secret:${name}]`);
  }
  return JSON.parse(text) as T;
}

const maxRedirects = 5;

interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) become a GET, as browsers do. */
function redirected(status: number, from: URL, to: URL, outgoing: Outgoing): Outgoing {
  const toGet = status === 303 || ((status === 301 || status === 302) && outgoing.method === 'POST');
  // The tool's headers may carry the environment's secrets: they go to the tool's own origin only.
  const headers = to.origin === from.origin ? { ...outgoing.headers } : {};
  if (toGet) delete headers['content-type'];
  return toGet ? { method: 'GET', headers, body: undefined } : { ...outgoing, headers };
}

/** Reads at most `limit` characters of a response body, without holding more of a huge one. */
async function readText(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit * 4) break;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, limit);
}

/**
 * Sends a tool's request under the egress rules. Redirects are followed here, not by the client, so that each
 * hop's address is checked before it is connected to.
 */
async function send(first: URL, outgoing: Outgoing, rules: EgressRules, signal: AbortSignal): Promise<{ status: number; text: string }> {
  let url = first;
  let current = outgoing;
  for (let hop = 0; ; hop++) {
    let dispatcher;
    try {
      dispatcher = egressDispatcher(url, rules);
      const response = await request(url, { ...current, dispatcher, signal });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump();
        if (hop === maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
        const next = new URL(location, url);
        current = redirected(response.statusCode, url, next, current);
        url = next;
        continue;
      }
      return { status: response.statusCode, text: await readText(response.body, maxResponseChars) };
    } catch (error) {
      if (error instanceof EgressRefused && url !== first) throw new EgressRefused(`redirected to ${url.origin}: ${error.message}`);
      throw error;
    } finally {
      await dispatcher?.destroy();
    }
  }
}

/**
 * Calls a tool: an HTTP request to the customer's backend. GET and DELETE send the arguments the URL does not
 * use as query parameters; the others send them as a JSON body. Never throws: failures, a refused address
 * among them, are part of the trace.
 */
export async function callTool(
  spec: ToolSpec,
  args: Record<string, unknown>,
  secrets: Record<string, string>,
  rules: EgressRules,
): Promise<ToolCallTrace> {
  const started = performance.now();
  // Until the URL is built, the trace shows its template: it holds no secret.
  const trace: ToolCallTrace = {
    name: spec.name,
    arguments: args,
    request: { method: spec.method, url: spec.url },
    status: null,
    response: null,
    error: null,
    duration_ms: 0,
  };
  const missing = secretsOfTool(spec).filter((name) => !Object.hasOwn(secrets, name));
  if (missing.length > 0) {
    trace.error = `missing secret${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: not set in this environment (svc secrets set NAME --env ENV)`;
    return trace;
  }
  try {
    const url = new URL(render(spec.url, secrets, args, true));
    const usedInUrl = new Set([...spec.url.matchAll(/\{\{\s*args\.([\w-]+)\s*\}\}/g)].map((m) => m[1]));
    const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !usedInUrl.has(k)));
    const hasBody = spec.method !== 'GET' && spec.method !== 'DELETE';
    if (!hasBody) for (const [k, v] of Object.entries(rest)) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const headers: Record<string, string> = Object.fromEntries(
      Object.entries(spec.headers).map(([k, v]) => [k.toLowerCase(), render(v, secrets, args, false)]),
    );
    if (hasBody) headers['content-type'] ??= 'application/json';
    trace.request.url = url.toString();
    const { status, text } = await send(
      url,
      { method: spec.method, headers, body: hasBody ? JSON.stringify(rest) : undefined },
      rules,
      AbortSignal.timeout(spec.timeout_ms),
    );
    trace.status = status;
    try {
      trace.response = JSON.parse(text);
    } catch {
      trace.response = text;
    }
  } catch (error) {
    trace.error = describeFailure(error, spec.timeout_ms);
  }
  trace.duration_ms = Math.round(performance.now() - started);
  return redact(trace, secrets);
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof EgressRefused) return `refused: ${error.message}`;
  const { name, message, cause, code } = error as Error & { cause?: unknown; code?: string };
  if (code === 'ERR_INVALID_URL') return 'the URL is not valid once its secrets and arguments are filled in';
  if (name === 'TimeoutError' || (name === 'AbortError' && cause instanceof Error && cause.name === 'TimeoutError'))
    return `timed out after ${timeoutMs} ms`;
  return message;
}
