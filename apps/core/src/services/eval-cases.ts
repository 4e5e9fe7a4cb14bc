import { type CreateEvalCaseInput, DomainError, type EvalCaseView, type UpdateEvalCaseInput } from '@svc/domain';
import { authorize, authorizeChange } from '../authorization.ts';
import type { EvalCaseRecord } from '../store/flags-store.ts';
import type { Membership, Store } from '../store/store.ts';
import type { Clock } from './clock.ts';
import { newId } from './ids.ts';

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
    async list(workspaceId: string, agent?: string): Promise<{ cases: EvalCaseView[] }> {
      return { cases: (await store.evalCases.list(workspaceId, agent)).map(toEvalCaseView) };
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
