/** How long one model call may take unless told (SVC_MODEL_TIMEOUT_MS): long answers take tens of seconds. */
export const defaultModelTimeoutMs = 60_000;

/** A model call that got no answer within its deadline. */
export class ModelTimeout extends Error {
  constructor(
    /** `provider:model`. */
    readonly model: string,
    readonly timeoutMs: number,
  ) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'ModelTimeout';
  }
}

/**
 * Runs a model call under one deadline, the client's retries and its waits between them included: the clients'
 * own timeout is per attempt, and their waits are not cut short, so a provider that takes the connection and says
 * nothing would otherwise cost a turn five timeouts. The signal aborts the request under way when time is up.
 */
export async function withDeadline<T>(model: string, timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ModelTimeout(model, timeoutMs));
      controller.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
