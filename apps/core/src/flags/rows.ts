import type { EvalCaseRecord, FlagRecord, FlagSnapshot } from './store.ts';

/** How both stores keep flags and eval cases: the flag's versions as columns, its snapshot and a case's turns as JSON text. */
interface FlagRow extends Omit<FlagRecord, 'version' | 'fixedByVersion' | 'snapshot'> {
  versionId: string;
  versionNumber: number;
  fixedByVersionId: string | null;
  fixedByVersionNumber: number | null;
  snapshot: string;
}

interface CaseRow extends Omit<EvalCaseRecord, 'turns'> {
  turns: string;
}

export const toFlag = ({ snapshot, versionId, versionNumber, fixedByVersionId, fixedByVersionNumber, ...row }: FlagRow): FlagRecord => ({
  ...row,
  version: { id: versionId, number: versionNumber },
  fixedByVersion:
    fixedByVersionId === null || fixedByVersionNumber === null ? null : { id: fixedByVersionId, number: fixedByVersionNumber },
  snapshot: JSON.parse(snapshot) as FlagSnapshot,
});

export const flagRow = ({ version, fixedByVersion, snapshot, ...flag }: FlagRecord): FlagRow => ({
  ...flag,
  versionId: version.id,
  versionNumber: version.number,
  fixedByVersionId: fixedByVersion?.id ?? null,
  fixedByVersionNumber: fixedByVersion?.number ?? null,
  snapshot: JSON.stringify(snapshot),
});

export const toCase = (row: CaseRow): EvalCaseRecord => ({ ...row, turns: JSON.parse(row.turns) as string[] });

export const caseRow = (c: EvalCaseRecord): CaseRow => ({ ...c, turns: JSON.stringify(c.turns) });
