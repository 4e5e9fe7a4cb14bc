import { z } from 'zod';

/**
 * Every error code the platform answers with, and the HTTP status it maps to.
 * The gateway maps core errors to HTTP through this table and nowhere else.
 */
export const errorStatus = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_phone_number: 400,
  invalid_code: 400,
  authorization_pending: 400,
  slow_down: 400,
  access_denied: 400,
  expired_token: 400,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_link: 400,
  invalid_manifest: 400,
  workspace_mismatch: 400,
  not_an_agent_reply: 400,
  invalid_repository: 400,
  invalid_csrf_token: 403,
  wrong_account: 403,
  unauthorized: 401,
  invalid_signature: 401,
  forbidden: 403,
  workspace_not_found: 404,
  not_found: 404,
  verification_not_found: 404,
  environment_not_found: 404,
  agent_not_found: 404,
  chat_not_found: 404,
  member_not_found: 404,
  invitation_not_found: 404,
  message_not_found: 404,
  flag_not_found: 404,
  eval_case_not_found: 404,
  eval_run_not_found: 404,
  nothing_deployed: 404,
  link_not_found: 404,
  preview_not_found: 404,
  method_not_allowed: 405,
  slug_taken: 409,
  sender_not_configured: 409,
  email_not_configured: 409,
  already_verified: 409,
  conflict: 409,
  already_member: 409,
  last_owner: 409,
  already_flagged: 409,
  flag_removed: 409,
  case_owned_by_flag: 409,
  judge_family_conflict: 409,
  run_finished: 409,
  result_pending: 409,
  repository_linked: 409,
  idempotency_key_in_progress: 409,
  verification_expired: 410,
  invitation_gone: 410,
  payload_too_large: 413,
  too_many_parameters: 413,
  unsupported_media_type: 415,
  unsupported_content_encoding: 415,
  incorrect_code: 422,
  idempotency_key_reused: 422,
  no_eval_cases: 422,
  verification_blocked: 423,
  resend_too_soon: 429,
  send_limit_exceeded: 429,
  rate_limited: 429,
  internal_error: 500,
  core_unavailable: 503,
  model_timeout: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

export const errorCode = z.enum(errorCodes);

/** The one error envelope, `{"error":{"code":"snake_case","message":"..."}}`, for the codes an answer may carry. */
export const errorEnvelope = (code: z.ZodType = errorCode) =>
  z.object({
    error: z.object({
      code,
      message: z.string(),
      field: z.string().optional().meta({ description: 'The request field at fault' }),
    }),
  });

export interface DomainErrorOptions {
  /** The request field at fault. */
  field?: string;
  /** Extra top-level members of the response body (the spec keeps e.g. `attempts_left` beside `error`). */
  details?: Record<string, unknown>;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

/** A failure a client can act on, thrown by core services and answered by the gateway. */
export class DomainError extends Error {
  readonly field: string | undefined;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    // An expected outcome, not a bug: no stack trace (tRPC copies `stack`, and with source maps that is costly).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'DomainError';
    this.field = options.field;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorStatus[this.code];
  }

  /** The serialisable form that crosses from core to the gateway. */
  toWire(): WireError {
    return { code: this.code, message: this.message, field: this.field, details: this.details, headers: this.headers };
  }

  static fromWire(wire: WireError): DomainError {
    return new DomainError(wire.code, wire.message, wire);
  }
}

export interface WireError extends DomainErrorOptions {
  code: ErrorCode;
  message: string;
}

/**
 * Field schemas whose violations have an error code of their own instead of `invalid_request`
 * (a phone number's is `invalid_phone_number`), so every client of these schemas answers the same code. A registry
 * of its own, not `.meta()`, keeps the codes out of the OpenAPI document's JSON Schemas.
 */
export const fieldErrorCodes = z.registry<{ code: ErrorCode }>();

/** What `invalidRequest` reads of a schema: zod's definition, looked through wrappers to the field at a path. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
}

const defOf = (schema: z.core.$ZodType) => schema._zod.def as unknown as SchemaDef;

/** The code registered for the field at `path` of `schema`, looking through optional, default, pipes and the like. */
function fieldCode(schema: z.core.$ZodType | undefined, path: readonly PropertyKey[]): ErrorCode | undefined {
  let depth = 0;
  while (schema) {
    if (depth === path.length) {
      const own = fieldErrorCodes.get(schema)?.code;
      if (own) return own;
    }
    const def = defOf(schema);
    const key = path[depth];
    if (def.innerType) schema = def.innerType;
    else if (def.type === 'pipe') schema = def.in;
    else if (depth === path.length) return undefined;
    else {
      depth += 1;
      if (def.type === 'object' && typeof key === 'string' && def.shape && Object.hasOwn(def.shape, key)) schema = def.shape[key];
      else if (def.type === 'array') schema = def.element;
      else if (def.type === 'record') schema = def.valueType;
      else return undefined;
    }
  }
  return undefined;
}

/**
 * The codes registered in `fieldErrorCodes` for the fields of `schema`, at any depth `fieldCode` looks: the codes
 * besides `invalid_request` that a violation of the schema can be answered with.
 */
export function fieldErrorCodesOf(schema: z.core.$ZodType): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const visit = (node: z.core.$ZodType, isField: boolean): void => {
    const own = fieldErrorCodes.get(node)?.code;
    if (own && isField) codes.add(own);
    const def = defOf(node);
    if (def.innerType) visit(def.innerType, isField);
    else if (def.type === 'pipe' && def.in) visit(def.in, isField);
    else if (def.type === 'object') for (const field of Object.values(def.shape ?? {})) visit(field, true);
    else if (def.type === 'array' && def.element) visit(def.element, true);
    else if (def.type === 'record' && def.valueType) visit(def.valueType, true);
  };
  visit(schema, false);
  return [...codes];
}

/**
 * A schema violation as a client sees it: `invalid_request` naming the first field at fault, or the code that
 * field's schema registers in `fieldErrorCodes`. `schemas` are those the input was checked against (a tRPC
 * procedure checks several in turn).
 */
export function invalidRequest(error: z.ZodError, root = 'body', schemas: z.core.$ZodType | readonly z.core.$ZodType[] = []): DomainError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : root;
  const message = issue ? `${field}: ${issue.message}` : `${root} is invalid`;
  const candidates = Array.isArray(schemas) ? schemas : [schemas as z.core.$ZodType];
  const code = issue && issue.path.length > 0 ? candidates.map((schema) => fieldCode(schema, issue.path)).find(Boolean) : undefined;
  return new DomainError(code ?? 'invalid_request', message, { field });
}
