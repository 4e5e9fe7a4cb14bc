import {
  ClientRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** A JSON-RPC error to answer; `id` is null where the message's own could not be read. */
export interface Refusal {
  id: RequestId | null;
  code: ErrorCode;
  message: string;
}

/** A line's JSON as the server takes it: a message to serve, an error to answer, or nothing (a bad notification). */
export type Screened = { message: JSONRPCMessage } | { refusal: Refusal } | { ignored: true };

/** The SDK's schema of each request a client may send, by method. */
const requestSchemas = new Map<string, z.ZodType>(ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is RequestId => typeof value === 'string' || Number.isInteger(value);
const issues = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.') || '(the whole)'}: ${issue.message}`).join('; ');

const refuse = (id: RequestId | null, code: ErrorCode, message: string): Screened => ({ refusal: { id, code, message } });
const invalid = (id: RequestId | null, why: string) => refuse(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`);

/**
 * What JSON-RPC 2.0 and MCP's lifecycle ask of each message, checked before the SDK's server sees it: a request
 * that is not one answers -32600 (Invalid Request); one sent before `initialize` (but `ping`) answers -32600 too, as
 * MCP names no code of its own for it; params off the SDK's schema of the method, or a tool not in `tools`, answer
 * -32602 (Invalid params). A notification is never answered, so a bad one is dropped. A tool's own arguments are
 * checked by the tool, whose refusal the model reads as a tool error and can correct, as MCP asks.
 */
export function requestScreen(tools: ReadonlySet<string>): (value: unknown) => Screened {
  let initialized = false;

  function request(value: Record<string, unknown>, id: RequestId, method: string): Screened {
    if (!initialized && method !== 'initialize' && method !== 'ping')
      return invalid(id, 'the server is not initialized; send initialize first');
    if (value.params !== undefined && !isObject(value.params))
      return refuse(id, ErrorCode.InvalidParams, 'Invalid params: params must be an object');
    const params = requestSchemas.get(method)?.safeParse({ method, params: value.params });
    if (params?.success === false) return refuse(id, ErrorCode.InvalidParams, `Invalid params: ${issues(params.error)}`);
    const tool = method === 'tools/call' && (value.params as { name: string }).name;
    if (tool !== false && !tools.has(tool)) return refuse(id, ErrorCode.InvalidParams, `Unknown tool: ${tool}`);
    const message = JSONRPCRequestSchema.safeParse(value);
    if (!message.success) return invalid(id, issues(message.error));
    if (method === 'initialize') initialized = true;
    return { message: message.data };
  }

  return (value) => {
    if (Array.isArray(value)) return invalid(null, 'send one message per line; batches are not taken');
    if (!isObject(value)) return invalid(null, 'a message is a JSON object');
    if ('id' in value && !isId(value.id)) return invalid(null, 'id must be a string or an integer');
    const id = 'id' in value ? (value.id as RequestId) : null;
    if (value.jsonrpc !== '2.0') return invalid(id, 'jsonrpc must be "2.0"');
    if (typeof value.method === 'string') {
      if (id !== null) return request(value, id, value.method);
      const notification = JSONRPCNotificationSchema.safeParse(value);
      return notification.success ? { message: notification.data } : { ignored: true };
    }
    if ('method' in value) return invalid(id, 'method must be a string');
    // An answer to a request of the server's: passed on when it is one, never answered.
    if (id !== null && ('result' in value || 'error' in value)) {
      const answer = JSONRPCMessageSchema.safeParse(value);
      return answer.success ? { message: answer.data } : { ignored: true };
    }
    return invalid(id, 'a request needs a method');
  };
}
