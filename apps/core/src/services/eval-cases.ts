import { type CreateEvalCaseInput, DomainError, type EvalCaseView, type Role, type UpdateEvalCaseInput } from '@svc/domain';
import type { EvalCaseRecord } from '../store/flags-store.ts';
import type { Membership, Store } from '../store/store.ts';
import type { Clock } from './clock.ts';
import { newId } from './ids.ts';

/** Who writes cases by hand: whoever may say what an agent should have said. */
const caseWriters: readonly Role[] = ['owner', 'developer', 'supervisor'];

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

function requireWriter(membership: Membership): void {
  if (!caseWriters.includes(membership.role)) throw new DomainError('forbidden', `your role (${membership.role}) cannot write eval cases`);
}

/** Eval cases: those flags make, and those members add by hand. A flag's case changes only through its flag. */
export function createEvalCaseService(store: Store, clock: Clock) {
  async function found(workspaceId: string, id: string): Promise<EvalCaseRecord> {
    const evalCase = await store.evalCases.get(workspaceId, id);
    if (!evalCase || evalCase.deletedAt) throw new DomainError('eval_case_not_found', `no eval case ${id} in this workspace`);
    return evalCase;
  }

  async function handWritten(membership: Membership, id: string): Promise<EvalCaseRecord> {
    requireWriter(membership);
    const evalCase = await found(membership.id, id);
    if (evalCase.originFlagId) {
      throw new DomainError(
        'case_owned_by_flag',
        `eval case ${id} is flag ${evalCase.originFlagId}'s: edit the flag's note, or remove the flag, to change it`,
      );
    }
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
      requireWriter(membership);
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

    async update(membership: Membership, id: string, input: UpdateEvalCaseInput): Promise<EvalCaseView> {
      const evalCase = await handWritten(membership, id);
      const next = { ...evalCase, ...input, updatedAt: clock().toISOString() };
      if (!(await store.evalCases.update(membership.id, id, next))) throw new DomainError('eval_case_not_found', `no eval case ${id}`);
      return toEvalCaseView(next);
    },

    async remove(membership: Membership, id: string): Promise<void> {
      await handWritten(membership, id);
      if (!(await store.evalCases.remove(membership.id, id, clock().toISOString()))) {
        throw new DomainError('eval_case_not_found', `no eval case ${id}`);
      }
    },
  };
}

export type EvalCaseService = ReturnType<typeof createEvalCaseService>;
