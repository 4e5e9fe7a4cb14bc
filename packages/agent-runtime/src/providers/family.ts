import { bufferedFetch } from '@svc/server-kit';

/**
 * Retries of a model call answered 429 or 5xx (or not answered), with the clients' backoff, which honours the
 * provider's Retry-After: enough to ride out a rate limit's window before the turn fails, within the call's deadline.
 */
export const maxRetries = 4;

/** What both SDKs' clients are made with: the provider's address and key, the retries and timeout, the fetch. */
export const clientOptions = (settings: { baseURL?: string; apiKey?: string }, keyNotSet: string, timeoutMs: number) => ({
  apiKey: settings.apiKey ?? keyNotSet,
  baseURL: settings.baseURL,
  maxRetries,
  timeout: timeoutMs,
  fetch: bufferedFetch,
});

/** The family of a model, from its name: what "a judge of another family" compares. */
export function modelFamily(provider: string, model: string): string {
  const name = model.toLowerCase();
  if (provider === 'scripted') return 'scripted';
  if (provider === 'anthropic' || name.includes('claude')) return 'anthropic';
  const families: [RegExp, string][] = [
    [/^(gpt|o\d|chatgpt|text-)/, 'openai'],
    [/llama/, 'meta'],
    [/qwen/, 'qwen'],
    [/mistral|mixtral|ministral/, 'mistral'],
    [/gemma|gemini/, 'google'],
    [/deepseek/, 'deepseek'],
    [/phi/, 'microsoft'],
  ];
  return families.find(([pattern]) => pattern.test(name))?.[1] ?? provider;
}
