import type { ToolSpec } from './manifest.ts';

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

/**
 * Calls a tool: an HTTP request to the customer's backend. GET and DELETE send the arguments the URL does not
 * use as query parameters; the others send them as a JSON body. Never throws: failures are part of the trace.
 */
export async function callTool(spec: ToolSpec, args: Record<string, unknown>, secrets: Record<string, string>): Promise<ToolCallTrace> {
  const started = performance.now();
  const url = new URL(render(spec.url, secrets, args, true));
  const usedInUrl = new Set([...spec.url.matchAll(/\{\{\s*args\.([\w-]+)\s*\}\}/g)].map((m) => m[1]));
  const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !usedInUrl.has(k)));
  const hasBody = spec.method !== 'GET' && spec.method !== 'DELETE';
  if (!hasBody) for (const [k, v] of Object.entries(rest)) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const headers: Record<string, string> = Object.fromEntries(Object.entries(spec.headers).map(([k, v]) => [k, render(v, secrets, args, false)]));
  if (hasBody) headers['content-type'] ??= 'application/json';
  const trace: ToolCallTrace = { name: spec.name, arguments: args, request: { method: spec.method, url: url.toString() }, status: null, response: null, error: null, duration_ms: 0 };
  try {
    const response = await fetch(url, {
      method: spec.method,
      headers,
      body: hasBody ? JSON.stringify(rest) : undefined,
      signal: AbortSignal.timeout(spec.timeout_ms),
    });
    const text = (await response.text()).slice(0, maxResponseChars);
    trace.status = response.status;
    try {
      trace.response = JSON.parse(text);
    } catch {
      trace.response = text;
    }
  } catch (error) {
    trace.error = (error as Error).name === 'TimeoutError' ? `timed out after ${spec.timeout_ms} ms` : (error as Error).message;
  }
  trace.duration_ms = Math.round(performance.now() - started);
  return redact(trace, secrets);
}
