import { invalidRequest } from '@svc/domain';
import type { AnyRouter } from '@trpc/server';
import {
  callProcedure,
  getErrorShape,
  getHTTPStatusCodeFromError,
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  TRPCError,
} from '@trpc/server/unstable-core-do-not-import';
import { ZodError, type z } from 'zod';

export type CallType = 'query' | 'mutation';

/** What a call answers, as tRPC's links read it: `{"result":{"data":...}}` or `{"error":<shape>}`. */
export type CallAnswer = { result: { data: unknown } } | { error: unknown };

export interface Answered {
  /** The HTTP status tRPC gives the answer. */
  status: number;
  /** The answer as JSON: a `CallAnswer`. */
  body: string;
  /** Why the call failed, when it did. */
  error?: TRPCError;
}

/** A call answered: its procedure (undefined when the router has none at its path), why it failed if it did, and how long it took. */
export interface CallAnswered {
  procedure: string | undefined;
  error: TRPCError | undefined;
  seconds: number;
}

export interface CallOptions<TRouter extends AnyRouter> {
  router: TRouter;
  onError?: (error: TRPCError, path: string) => void;
  onAnswered?: (answered: CallAnswered) => void;
  /** Where each call's procedure runs: within its time for the database. */
  within?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * A schema violation of a procedure's input, answered with the code the field's schema registers
 * (`invalid_phone_number`), as the gateway answers it: the procedure's input schemas say which field is which.
 */
async function explainInputError(error: TRPCError, router: AnyRouter, path: string): Promise<TRPCError> {
  if (!(error.cause instanceof ZodError)) return error;
  const procedure = await getProcedureAtPath(router, path).catch(() => null);
  const inputs = ((procedure?._def as { inputs?: unknown[] } | undefined)?.inputs ?? []).filter(
    (input): input is z.ZodType => input instanceof Object && '_zod' in input,
  );
  return new TRPCError({ code: error.code, message: error.message, cause: invalidRequest(error.cause, 'input', inputs) });
}

/**
 * Runs one call of a procedure of `router` through tRPC's own middleware, input validation and error
 * formatting, for core's transports (HTTP, and the gateway's channel). The input comes from `readInput` so that a
 * transport's own failure to read it (a malformed body) is answered as tRPC answers it.
 */
export function createCaller<TRouter extends AnyRouter>({ router, onError, onAnswered, within }: CallOptions<TRouter>) {
  const config = router._def._config;
  const procedures = new Set(Object.keys(router._def.procedures));
  const answer = async (
    type: CallType,
    path: string,
    readInput: () => unknown,
    createContext: () => unknown,
    /** Fires when the caller hung up: a procedure that waits (a long poll) stops waiting. */
    signal?: AbortSignal,
  ): Promise<Answered> => {
    let input: unknown;
    let ctx: unknown;
    try {
      input = await readInput();
      ctx = await createContext();
      const call = () => callProcedure({ router, path, getRawInput: async () => input, ctx, type, signal, batchIndex: 0 });
      const data: unknown = await (within ? within(call) : call());
      // Serialised here, so that a result JSON cannot carry is answered as the fault it is, not lost.
      return { status: 200, body: JSON.stringify({ result: { data } } satisfies CallAnswer) };
    } catch (cause) {
      const error = await explainInputError(getTRPCErrorFromUnknown(cause), router, path);
      onError?.(error, path);
      const answer: CallAnswer = { error: getErrorShape({ config, error, type, path, input, ctx }) };
      return { status: getHTTPStatusCodeFromError(error), body: JSON.stringify(answer), error };
    }
  };
  if (!onAnswered) return answer;
  return async (...args: Parameters<typeof answer>): Promise<Answered> => {
    const started = performance.now();
    const answered = await answer(...args);
    const [, path] = args;
    onAnswered({
      procedure: procedures.has(path) ? path : undefined,
      error: answered.error,
      seconds: (performance.now() - started) / 1000,
    });
    return answered;
  };
}
