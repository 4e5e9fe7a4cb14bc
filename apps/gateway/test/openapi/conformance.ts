import { type JsonResponse, type RequestOptions, request } from '@svc/testkit';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A JSON Schema of the document, as read from it. */
export type Schema = Record<string, unknown>;
interface Header {
  required?: boolean;
  schema?: Schema;
}
interface Response {
  content?: Record<string, unknown>;
  headers?: Record<string, Header>;
  'x-error-codes'?: string[];
}
/** A path, query or header parameter of an operation, with its schema. */
export interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
  security?: Record<string, string[]>[];
}
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** One operation of the served document. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/cli/workspaces/{workspace}`. */
  template: string;
  /** Each documented status, with the error codes documented for it (none for a success). */
  statuses: Record<string, string[]>;
  /** The content types of its request body; empty when it takes none. */
  bodyTypes: string[];
  /** The request headers it documents, e.g. `Idempotency-Key`. */
  headers: string[];
  /** The query parameters it documents. */
  query: string[];
  /** Its path and query parameters, with their schemas. */
  parameters: Parameter[];
  /** The schema of its JSON request body, and whether a body must be sent. */
  jsonBody?: { schema: Schema; required: boolean };
  /** Whether its `security` asks for a bearer token. */
  bearer: boolean;
}

/** A request to an operation named by its operationId; the path comes from the document. */
export interface Call extends Omit<RequestOptions, 'method'> {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** A form body (`application/x-www-form-urlencoded`). */
  form?: Record<string, string>;
  /** Another gateway to send it to, e.g. one whose core is out of reach. */
  baseUrl?: string;
}

export interface Conformance {
  /** Sends a request and fails unless the served document describes its answer (status, content type, body, headers). */
  request(url: string, init?: RequestOptions): Promise<JsonResponse>;
  /** Sends a request to the operation, checked as `request` does. */
  call(operationId: string, call?: Call): Promise<JsonResponse>;
  operations: DocumentedOperation[];
  /** What was answered so far: `operationId status` and `operationId status code`. */
  checked: Set<string>;
  /** Whether a schema of the document takes the value, its `$ref`s read in the document. */
  accepts(schema: Schema, value: unknown): boolean;
  /** The schema a `$ref` of the document names; any other schema as it is. */
  resolve(schema: Schema): Schema;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The path template of the served document that a concrete path matches; literal segments win over parameters. */
function templateOf(doc: Document, path: string): string | undefined {
  const candidates = Object.keys(doc.paths).filter((template) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`).test(path),
  );
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/** The error code of an answer: the envelope's `error.code`, or OAuth's `error`. */
export function errorCodeOf(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Validates real answers against the OpenAPI document the gateway serves, with ajv (JSON Schema draft 2020-12, the
 * dialect of OpenAPI 3.1): a client generated from the document must be able to read every answer.
 */
export async function conformance(baseUrl: string): Promise<Conformance> {
  const doc = (await request(`${baseUrl}/openapi.json`)).body as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const checked = new Set<string>();
  const operations: DocumentedOperation[] = Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const json = op.requestBody?.content['application/json'];
      return {
        operationId: op.operationId,
        method,
        template,
        statuses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, r['x-error-codes'] ?? []])),
        bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        headers: (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        parameters: (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
        bearer: (op.security ?? []).some((requirement) => 'bearer' in requirement),
        ...(json ? { jsonBody: { schema: json.schema, required: op.requestBody?.required ?? false } } : {}),
      };
    }),
  );

  const validators = new Map<string, ValidateFunction>();
  function validate(ref: string, value: unknown, what: string): void {
    const check = validators.get(ref) ?? ajv.compile({ $ref: `openapi.json#/${ref}` });
    validators.set(ref, check);
    if (!check(value)) throw new Error(`${what}: ${ajv.errorsText(check.errors)}`);
  }

  // A schema taken out of the document reads its `$ref`s there.
  const accepting = new Map<string, ValidateFunction>();
  function accepts(schema: Schema, value: unknown): boolean {
    const text = JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/');
    const check = accepting.get(text) ?? ajv.compile(JSON.parse(text) as Schema);
    accepting.set(text, check);
    return check(value);
  }
  function resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const named = doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
    if (!named) throw new Error(`${ref} is not a schema of the document`);
    return resolve(named);
  }

  function checkHeaders(where: string, described: Response, headers: Headers, at: (...parts: string[]) => string): void {
    for (const [name, header] of Object.entries(described.headers ?? {})) {
      const value = headers.get(name);
      if (value === null) {
        if (header.required) throw new Error(`${where}: the documented header ${name} is missing`);
        continue;
      }
      const typed = header.schema?.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
      validate(at('headers', name, 'schema'), typed, `${where}: header ${name}: ${value}`);
    }
  }

  function check(method: string, path: string, response: JsonResponse, raw: string): void {
    const template = templateOf(doc, path);
    if (!template) throw new Error(`${method} ${path}: no path of the document matches`);
    const operation = doc.paths[template]?.[method];
    if (!operation) throw new Error(`${method} ${template}: not in the document`);
    const status = String(response.status);
    const where = `${method} ${template} ${status}`;
    const described = operation.responses[status];
    if (!described) throw new Error(`${method} ${template}: status ${status} is not documented (body: ${raw.slice(0, 300)})`);
    const at = (...parts: string[]) => pointer('paths', template, method, 'responses', status, ...parts);
    const type = response.headers.get('content-type')?.split(';')[0] ?? '';
    if (!described.content) {
      if (raw !== '') throw new Error(`${where}: documented without a body, answered ${raw.slice(0, 300)}`);
    } else {
      if (!described.content[type]) throw new Error(`${where}: content type ${type} is not documented`);
      validate(at('content', type, 'schema'), response.body, `${where}: body ${raw.slice(0, 500)}`);
    }
    checkHeaders(where, described, response.headers, at);
    checked.add(`${operation.operationId} ${status}`);
    const code = errorCodeOf(response.body);
    if (response.status >= 400 && code) {
      if (!(described['x-error-codes'] ?? []).includes(code)) throw new Error(`${where}: error ${code} is not documented`);
      checked.add(`${operation.operationId} ${status} ${code}`);
    }
  }

  async function send(url: string, init: RequestOptions = {}): Promise<JsonResponse> {
    const response = await request(url, init);
    const raw = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    const method = init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET');
    check(method.toLowerCase(), new URL(url).pathname, response, raw);
    return response;
  }

  return {
    checked,
    operations,
    accepts,
    resolve,
    request: send,
    call(operationId, { params = {}, query, form, baseUrl: base = baseUrl, ...init } = {}) {
      const op = operations.find((candidate) => candidate.operationId === operationId);
      if (!op) throw new Error(`no operation ${operationId} in the document`);
      const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new Error(`${operationId}: no value for the path parameter ${name}`);
        return encodeURIComponent(value);
      });
      const formInit = form
        ? { body: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...init.headers } }
        : {};
      const search = query ? `?${new URLSearchParams(query).toString()}` : '';
      return send(`${base}${path}${search}`, { ...init, ...formInit, method: op.method.toUpperCase() });
    },
  };
}
