import { type JsonResponse, type RequestOptions, request } from '@svc/testkit';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Operation = { responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The path template of the served document that a concrete path matches; literal segments win over parameters. */
function templateOf(doc: Document, path: string): string | undefined {
  const candidates = Object.keys(doc.paths).filter((template) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`).test(path),
  );
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

export interface Conformance {
  /** Sends a request and fails unless the served document describes its answer (status, content type, body). */
  request(url: string, init?: RequestOptions): Promise<JsonResponse>;
  /** Every `METHOD template status` checked so far. */
  checked: Set<string>;
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

  function check(method: string, path: string, response: JsonResponse, raw: string): void {
    const template = templateOf(doc, path);
    if (!template) throw new Error(`${method} ${path}: no path of the document matches`);
    const operation = doc.paths[template]?.[method];
    if (!operation) throw new Error(`${method} ${template}: not in the document`);
    const status = String(response.status);
    const described = operation.responses[status] ?? operation.responses.default;
    if (!described) throw new Error(`${method} ${template}: status ${status} is not documented (body: ${raw.slice(0, 300)})`);
    const type = response.headers.get('content-type')?.split(';')[0] ?? '';
    if (!described.content) {
      if (raw !== '') throw new Error(`${method} ${template} ${status}: documented without a body, answered ${raw.slice(0, 300)}`);
    } else {
      if (!described.content[type]) throw new Error(`${method} ${template} ${status}: content type ${type} is not documented`);
      if (type === 'application/json') {
        const ref = `openapi.json#/${pointer('paths', template, method, 'responses', operation.responses[status] ? status : 'default', 'content', type, 'schema')}`;
        const validate = ajv.compile({ $ref: ref });
        if (!validate(response.body)) {
          throw new Error(`${method} ${template} ${status}: ${ajv.errorsText(validate.errors)}; body: ${raw.slice(0, 500)}`);
        }
      }
    }
    checked.add(`${method.toUpperCase()} ${template} ${status}`);
  }

  return {
    checked,
    async request(url, init = {}) {
      const response = await request(url, init);
      const raw = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      const method = init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET');
      check(method.toLowerCase(), new URL(url).pathname, response, raw);
      return response;
    },
  };
}
