import type { EvalCaseRecord } from './flags-store.ts';

interface CaseRow extends Omit<EvalCaseRecord, 'turns'> {
  turns: string;
}

export const toCase = (row: CaseRow): EvalCaseRecord => ({ ...row, turns: JSON.parse(row.turns) as string[] });

export const caseRow = (c: EvalCaseRecord): CaseRow => ({ ...c, turns: JSON.stringify(c.turns) });
