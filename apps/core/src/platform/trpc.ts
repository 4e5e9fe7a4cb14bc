import { DomainError, invalidRequest, type WireError, workspaceScope } from '@svc/domain';
import { initTRPC, type TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { Services } from '../services.ts';
import { unavailable } from './unavailable.ts';

export interface Context {
  services: Services;
  /** The caller's `Authorization` header, forwarded by the gateway. */
  authorization: string | undefined;
  /** The console session cookie's value, forwarded by the gateway as `x-svc-session`. */
  session: string | undefined;
}

export const sessionHeader = 'x-svc-session';

/** The inner context: callable from tests without HTTP. */
export function createContext(services: Services, authorization?: string, session?: string): Context {
  return { services, authorization, session };
}

function toWire(cause: unknown): WireError {
  if (cause instanceof DomainError) return cause.toWire();
  if (cause instanceof ZodError) return invalidRequest(cause).toWire();
  return (unavailable(cause) ?? new DomainError('internal_error', 'internal error')).toWire();
}

/** The error code a failed call answers (`not_found`, `rate_limited`, `internal_error`...), as its caller reads it. */
export const errorCodeOf = (error: TRPCError): string => toWire(error.cause).code;

const t = initTRPC.context<Context>().create({
  // Never a stack trace in an answer; computing one for every expected DomainError is costly too.
  isDev: false,
  // Object.assign, not `{ ...shape.data, svc }`: on Node 20 a spread that adds keys makes a new map for every answer.
  errorFormatter({ shape, error }) {
    return { ...shape, message: '', data: Object.assign({}, shape.data, { stack: undefined, svc: toWire(error.cause) }) };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

async function principalOf(ctx: Context) {
  const principal = await ctx.services.identity.authenticate(ctx.authorization);
  if (!principal) throw new DomainError('unauthorized', 'a valid developer token is required');
  return principal;
}

// Middlewares hand tRPC only what they add to the context: tRPC merges it into the context it has. Each middleware
// is a step of tRPC's chain, whose copies of the call's options are a measurable share of a call's CPU, so a
// procedure takes as few as it can.

export const authedProcedure = t.procedure.use(async ({ ctx, next }) => next({ ctx: { principal: await principalOf(ctx) } }));

/** A procedure for a signed-in console user (the gateway checks the CSRF token of its forms). */
export const sessionProcedure = t.procedure.use(async ({ ctx, next }) => {
  const session = await ctx.services.sessions.resolve(ctx.session);
  if (!session) throw new DomainError('unauthorized', 'sign in first');
  return next({ ctx: { consoleSession: session } });
});

/** A procedure for a user behind a developer token or a console session. */
export const userProcedure = t.procedure.use(async ({ ctx, next }) => {
  const principal = await ctx.services.identity.authenticate(ctx.authorization);
  if (principal) return next({ ctx: { user: principal.user, currentTokenId: principal.token.id as string | undefined } });
  const session = await ctx.services.sessions.resolve(ctx.session);
  if (!session) throw new DomainError('unauthorized', 'a valid developer token is required');
  return next({ ctx: { user: session.user, currentTokenId: undefined as string | undefined } });
});

/** A procedure on one workspace of the caller's; its input carries `workspace` (the slug). */
export const workspaceProcedure = t.procedure.input(workspaceScope).use(async ({ ctx, input, next }) => {
  const principal = await principalOf(ctx);
  const membership = await ctx.services.workspaces.resolve(input.workspace, principal.user.id);
  return next({ ctx: { principal, membership } });
});

/** A procedure on one of the caller's workspaces, for a developer token or a console session alike. */
export const memberProcedure = userProcedure.input(workspaceScope).use(async ({ ctx, input, next }) => {
  const membership = await ctx.services.workspaces.resolve(input.workspace, ctx.user.id);
  return next({ ctx: { membership } });
});
