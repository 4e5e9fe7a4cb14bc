import { DomainError, type FlagStatus } from '@svc/domain';
import type { FlagRecord } from './store.ts';

/** What can happen to a flag after it is made. */
export type FlagAction =
  | { kind: 'edit'; note: string | null }
  | { kind: 'remove' }
  | { kind: 'fix'; version: { id: string; number: number }; at: string }
  /** A person overrode the live pass that fixed it: open again, unless another version fixed it since. */
  | { kind: 'unfix'; versionId: string };

/** The flag's next state and what happens to its eval case; `undefined` when the action changes nothing. */
export interface FlagTransition {
  status: FlagStatus;
  note: string | null;
  fixedByVersion: FlagRecord['fixedByVersion'];
  fixedAt: string | null;
  /** create: the note is new; update: the note changed; delete: the note or the flag is gone. */
  evalCase: 'create' | 'update' | 'delete' | 'keep';
}

/** An empty note is no note: the flag stays, out of the digest and without a case. */
export const noteOf = (note: string | null | undefined): string | null => (note ? note : null);

/**
 * The flag lifecycle. A flag with a note is open and has an eval case; without one it has none. Editing the note of
 * a fixed flag reopens it. Removing a flag (any state) removes its case; a removed flag changes no more. Only an open
 * flag with a note can be fixed, by an eval run on live of a version other than the flagged reply's (one published after
 * the reply was given) passing its case; a person overriding that pass opens it again.
 */
export function transition(flag: FlagRecord, action: FlagAction): FlagTransition | undefined {
  if (action.kind === 'remove') {
    if (flag.status === 'removed') return undefined;
    return { ...flag, status: 'removed', evalCase: flag.evalCaseId ? 'delete' : 'keep' };
  }
  if (flag.status === 'removed') throw new DomainError('flag_removed', `flag ${flag.id} was removed; flag the reply again instead`);
  if (action.kind === 'fix') {
    // The version that gave the flagged reply passing its case says nothing new: the reply was judged already.
    if (flag.status === 'fixed' || action.version.id === flag.version.id) return undefined;
    if (!flag.note || !flag.evalCaseId) throw new DomainError('conflict', `flag ${flag.id} has no note, so no case that could pass`);
    return { ...flag, status: 'fixed', fixedByVersion: action.version, fixedAt: action.at, evalCase: 'keep' };
  }
  if (action.kind === 'unfix') {
    if (flag.status !== 'fixed' || flag.fixedByVersion?.id !== action.versionId) return undefined;
    return { status: 'open', note: flag.note, fixedByVersion: null, fixedAt: null, evalCase: 'keep' };
  }
  const note = noteOf(action.note);
  if (note === flag.note) return undefined;
  const evalCase = note === null ? (flag.evalCaseId ? 'delete' : 'keep') : flag.evalCaseId ? 'update' : 'create';
  return { status: 'open', note, fixedByVersion: null, fixedAt: null, evalCase };
}
