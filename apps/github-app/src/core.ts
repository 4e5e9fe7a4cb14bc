import { TRPCClientError } from '@trpc/client';

/** What core said went wrong: its stable code, message and details (a manifest's issues). */
export interface CoreError {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** Core's answer to a call that failed, or `core_unreachable` when no answer came; undefined for anything else. */
export function coreErrorOf(error: unknown): CoreError | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const wire = (error.data as { svc?: Partial<CoreError> } | undefined)?.svc;
  if (!wire?.code) return { code: 'core_unreachable', message: `svc did not answer (${error.message}); push again to retry`, details: {} };
  return { code: wire.code, message: wire.message ?? wire.code, details: wire.details ?? {} };
}
