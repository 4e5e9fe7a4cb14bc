import { type CreateEvalCaseInput, DomainError, type EvalCaseQuery, type EvalCaseView, type UpdateEvalCaseInput } from '@svc/domain';
import { z } from 'zod';
import { authorize, authorizeChange } from '../platform/authorization.ts';
import type { EvalCaseRecord } from '../flags/store.ts';
import type { Membership, Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { nextCursorOf, pageRequest } from '../platform/pages.ts';

export function toEvalCaseView(c: EvalCaseRecord): EvalCaseView {
  return {
    id: c.id,
    agent: c.agent,
    turns: c.turns,
    expected: c.expected,
    origin: c.originFlagId ? { flag_id: c.originFlagId } : { created_by: c.createdBy ?? 'unknown' },
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

/** Eval cases: those flags make, and those members add by hand. A flag's case changes only through its flag. */
export function createEvalCaseService(store: Store, clock: Clock) {
  async function found(workspaceId: string, id: string): Promise<EvalCaseRecord> {
    const evalCase = await store.evalCases.get(workspaceId, id);
    if (!evalCase || evalCase.deletedAt) throw new DomainError('eval_case_not_found', `no eval case ${id} in this workspace`);
    return evalCase;
  }

  /** A case written by hand that `actor` may change: their own, or anyone's for a developer. */
  async function changeable(membership: Membership, actor: string, id: string): Promise<EvalCaseRecord> {
    const evalCase = await found(membership.id, id);
    if (evalCase.originFlagId) {
      throw new DomainError(
        'case_owned_by_flag',
        `eval case ${id} is flag ${evalCase.originFlagId}'s: edit the flag's note, or remove the flag, to change it`,
      );
    }
    authorizeChange(membership, evalCase.createdBy, actor, 'writeCases', 'changeAnyCase');
    return evalCase;
  }

  return {
    /** A page of the cases, oldest first, of one agent when asked. */
    async list(workspaceId: string, { agent, ...query }: EvalCaseQuery) {
      const page = await store.evalCases.page(workspaceId, agent, pageRequest(query, z.iso.datetime()));
      return { cases: page.items.map(toEvalCaseView), next_cursor: nextCursorOf(page, (c) => ({ key: c.createdAt, id: c.id })) };
    },

    /** The cases a run replays, removed ones too: what its page shows beside each result. */
    async ofRun(workspaceId: string, runId: string): Promise<EvalCaseView[]> {
      if (!(await store.evalRuns.get(workspaceId, runId)))
        throw new DomainError('eval_run_not_found', `no eval run ${runId} in this workspace`);
      return (await store.evalCases.ofRun(workspaceId, runId)).map(toEvalCaseView);
    },

    async get(workspaceId: string, id: string): Promise<EvalCaseView> {
      return toEvalCaseView(await found(workspaceId, id));
    },

    async create(membership: Membership, email: string, input: CreateEvalCaseInput): Promise<EvalCaseView> {
      authorize(membership, 'writeCases');
      const at = clock().toISOString();
      const evalCase: EvalCaseRecord = {
        id: newId('case'),
        workspaceId: membership.id,
        agent: input.agent,
        turns: input.turns,
        expected: input.expected,
        originFlagId: null,
        createdBy: email,
        createdAt: at,
        updatedAt: at,
        deletedAt: null,
      };
      await store.evalCases.create(evalCase);
      return toEvalCaseView(evalCase);
    },

    async update(membership: Membership, actor: string, id: string, input: UpdateEvalCaseInput): Promise<EvalCaseView> {
      const evalCase = await changeable(membership, actor, id);
      const next = { ...evalCase, ...input, updatedAt: clock().toISOString() };
      if (!(await store.evalCases.update(membership.id, id, next))) throw new DomainError('eval_case_not_found', `no eval case ${id}`);
      return toEvalCaseView(next);
    },

    async remove(membership: Membership, actor: string, id: string): Promise<void> {
      await changeable(membership, actor, id);
      if (!(await store.evalCases.remove(membership.id, id, clock().toISOString()))) {
        throw new DomainError('eval_case_not_found', `no eval case ${id}`);
      }
    },
  };
}

export type EvalCaseService = ReturnType<typeof createEvalCaseService>;
