// Tests read answers field by field in their assertions, so an untyped body is what they need.
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  method?: string;
  token?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

/** A request as a client would send it; the body is parsed when the answer is JSON. */
export async function request<T = any>(url: string, init: RequestOptions = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(init.json);
  }
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
