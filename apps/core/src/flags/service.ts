import { renderFlagsDigest } from '@svc/digest';
import {
  type CreateFlagInput,
  DomainError,
  type FlagListQuery,
  type FlagView,
  type FlagWarning,
  type FlagWithHistoryView,
  flagsDigestCap,
} from '@svc/domain';
import { z } from 'zod';
import { authorize, authorizeChange } from '../platform/authorization.ts';
import type { EvalCaseRecord, FlagChange, FlagEventRecord, FlagRecord, FlagSnapshot } from './store.ts';
import type { Membership, Store } from '../store.ts';
import type { Clock } from '../platform/clock.ts';
import { liveEnvironment } from '../agents/deployments.ts';
import { type FlagAction, type FlagTransition, noteOf, transition } from './lifecycle.ts';
import { snapshotOf } from './snapshot.ts';
import { newId } from '../platform/ids.ts';
import type { FlaggedReply, NoteCheck } from './note-check.ts';
import { nextCursorOf, pageRequest } from '../platform/pages.ts';

/** The actor of a change no member made: an eval run on live passing a flag's case. */
export const systemActor = 'svc';

/** Changes computed from a state another request changed meanwhile are recomputed, this many times at most. */
const maxAttempts = 5;

export function toFlagView(flag: FlagRecord): FlagView {
  return {
    id: flag.id,
    status: flag.status,
    agent: flag.agent,
    environment: flag.environment,
    version: flag.version,
    channel: flag.channel,
    chat_id: flag.chatId,
    message_id: flag.messageId,
    reply: flag.snapshot.reply,
    note: flag.note,
    conversation: flag.snapshot.conversation,
    turn: flag.snapshot.turn,
    eval_case_id: flag.evalCaseId,
    fixed_by_version: flag.fixedByVersion,
    fixed_at: flag.fixedAt,
    created_by: flag.createdBy,
    created_at: flag.createdAt,
    updated_at: flag.updatedAt,
  };
}

/** Flags of agent replies, their history, and the eval cases their notes make. */
export function createFlagService(store: Store, clock: Clock, checkNote: NoteCheck) {
  const caseFor = (flag: FlagRecord, expected: string, at: string): EvalCaseRecord => ({
    id: newId('case'),
    workspaceId: flag.workspaceId,
    agent: flag.agent,
    turns: flag.snapshot.turns,
    expected,
    originFlagId: flag.id,
    createdBy: null,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  });

  /** The flag's case after the transition, and the change that makes it so. */
  function caseChangeOf(flag: FlagRecord, next: FlagTransition, at: string): Pick<FlagChange, 'evalCaseId' | 'evalCase'> {
    if (next.evalCase === 'create' && next.note) {
      const evalCase = caseFor(flag, next.note, at);
      return { evalCaseId: evalCase.id, evalCase: { op: 'create', evalCase } };
    }
    if (next.evalCase === 'update' && flag.evalCaseId && next.note)
      return { evalCaseId: flag.evalCaseId, evalCase: { op: 'update', id: flag.evalCaseId, expected: next.note } };
    if (next.evalCase === 'delete' && flag.evalCaseId) return { evalCaseId: null, evalCase: { op: 'delete', id: flag.evalCaseId } };
    return { evalCaseId: flag.evalCaseId };
  }

  async function found(workspaceId: string, id: string): Promise<FlagRecord> {
    const flag = await store.flags.get(workspaceId, id);
    if (!flag) throw new DomainError('flag_not_found', `no flag ${id} in this workspace`);
    return flag;
  }

  /** The change an action makes to the flag as it stands, with its event and case change; undefined when none. */
  function changeOf(flag: FlagRecord, actor: string, action: FlagAction, at: string): FlagChange | undefined {
    const next = transition(flag, action);
    if (!next) return undefined;
    const event: FlagEventRecord = {
      id: newId('fev'),
      flagId: flag.id,
      actor,
      fromStatus: flag.status,
      toStatus: next.status,
      noteBefore: flag.note,
      noteAfter: next.note,
      at,
    };
    return {
      flagId: flag.id,
      revision: flag.revision,
      status: next.status,
      note: next.note,
      fixedByVersion: next.fixedByVersion,
      fixedAt: next.fixedAt,
      updatedAt: at,
      ...caseChangeOf(flag, next, at),
      event,
    };
  }

  /** The flag a case was made from, while the case is not removed. */
  async function originOf(workspaceId: string, caseId: string): Promise<FlagRecord | undefined> {
    const evalCase = await store.evalCases.get(workspaceId, caseId);
    if (!evalCase?.originFlagId || evalCase.deletedAt) return undefined;
    return store.flags.get(workspaceId, evalCase.originFlagId);
  }

  async function withHistory(flag: FlagRecord): Promise<FlagWithHistoryView> {
    const history = await store.flags.history(flag.id);
    return {
      ...toFlagView(flag),
      history: history.map((e) => ({
        actor: e.actor,
        from_status: e.fromStatus,
        to_status: e.toStatus,
        note_before: e.noteBefore,
        note_after: e.noteAfter,
        at: e.at,
      })),
    };
  }

  /** Applies an action, recomputed on the state that holds if another change got there first. */
  async function act(workspaceId: string, id: string, actor: string, action: FlagAction, at: string): Promise<FlagRecord> {
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      const flag = await found(workspaceId, id);
      const change = changeOf(flag, actor, action, at);
      if (!change) return flag;
      if (await store.flags.change(change)) return found(workspaceId, id);
    }
    throw new DomainError('conflict', `flag ${id} is changing too often at once; retry the request`);
  }

  /** The newest open flags with a note, as many as a digest shows, and how many there are (of one agent when asked). */
  async function newestInDigest(workspaceId: string, agent?: string): Promise<{ flags: FlagView[]; total: number }> {
    const { count, newest } = await store.flags.newestInDigest(workspaceId, agent, flagsDigestCap);
    return { flags: newest.map(toFlagView), total: count };
  }

  /** An agent reply of one of the workspace's conversations (not of an eval replay), with its chat. */
  async function replyOf(membership: Membership, messageId: string) {
    const found = await store.flags.findMessage(membership.id, messageId);
    if (!found) throw new DomainError('message_not_found', `no message ${messageId} in ${membership.slug}`);
    const { chat, message } = found;
    if (message.role !== 'agent')
      throw new DomainError('not_an_agent_reply', `message ${message.id} is the visitor's; flag the agent's reply`);
    if (chat.replay)
      throw new DomainError('not_an_agent_reply', `message ${message.id} is a reply of an eval replay, not of a conversation`);
    return found;
  }

  /** The version that gave a reply: never deleted, so its absence is a fault of ours, not the caller's. */
  async function versionOf(workspaceId: string, versionId: string) {
    const version = await store.versions.get(workspaceId, versionId);
    if (!version) throw new Error(`version ${versionId} of workspace ${workspaceId} is missing`);
    return version;
  }

  /** What a note is checked against: the reply and the messages before it that its flag keeps, and its agent. */
  const flaggedReply = (snapshot: FlagSnapshot, agent: string, versionFiles: Record<string, string>): FlaggedReply => ({
    before: snapshot.conversation.map(({ role, text }) => ({ role, text })),
    reply: snapshot.reply,
    agent,
    versionFiles,
  });

  /** A reply with its chat, its version, and what a flag of it freezes: the note is checked against the same. */
  async function withChat(membership: Membership, messageId: string) {
    const { chat, message } = await replyOf(membership, messageId);
    const [messages, version] = await Promise.all([store.chats.messages(chat.id), versionOf(membership.id, chat.versionId)]);
    const snapshot = snapshotOf(messages, message);
    return { chat, message, version, snapshot, flagged: flaggedReply(snapshot, chat.agent, version.files) };
  }

  return {
    originOf,

    /** What flagging this reply with this note would warn of, before it is flagged (what the console asks first). */
    async check(membership: Membership, input: CreateFlagInput): Promise<{ warning: FlagWarning | null }> {
      authorize(membership, 'flag');
      const { flagged } = await withChat(membership, input.message_id);
      return { warning: (await checkNote(flagged, noteOf(input.note))) ?? null };
    },

    /** Flags an agent reply of one of the workspace's conversations, freezing what the chat showed. */
    async create(membership: Membership, actor: string, input: CreateFlagInput): Promise<FlagView & { warning?: FlagWarning }> {
      authorize(membership, 'flag');
      const { chat, message, version, snapshot, flagged } = await withChat(membership, input.message_id);
      const at = clock().toISOString();
      const note = noteOf(input.note);
      const flag: FlagRecord = {
        id: newId('flag'),
        workspaceId: membership.id,
        chatId: chat.id,
        messageId: message.id,
        status: 'open',
        note,
        agent: chat.agent,
        environment: chat.environment,
        version: { id: chat.versionId, number: version.number },
        channel: chat.channel,
        snapshot,
        evalCaseId: null,
        fixedByVersion: null,
        fixedAt: null,
        createdBy: actor,
        revision: 0,
        createdAt: at,
        updatedAt: at,
      };
      const evalCase = note ? caseFor(flag, note, at) : undefined;
      flag.evalCaseId = evalCase?.id ?? null;
      const event: FlagEventRecord = {
        id: newId('fev'),
        flagId: flag.id,
        actor,
        fromStatus: null,
        toStatus: 'open',
        noteBefore: null,
        noteAfter: note,
        at,
      };
      const outcome = await store.flags.create(flag, event, evalCase);
      if (!outcome.created) {
        throw new DomainError('already_flagged', `this reply is flagged already (${outcome.flagId})`, {
          details: { flag_id: outcome.flagId },
        });
      }
      const warning = await checkNote(flagged, note);
      return { ...toFlagView(flag), ...(warning && { warning }) };
    },

    /** A page of the flags in a state (or all), oldest first, of one agent when asked. */
    async list(workspaceId: string, { status, agent, ...query }: FlagListQuery) {
      const page = await store.flags.list(workspaceId, { status, agent }, pageRequest(query, z.iso.datetime()));
      return { flags: page.items.map(toFlagView), next_cursor: nextCursorOf(page, (flag) => ({ key: flag.createdAt, id: flag.id })) };
    },

    /** The flags among `ids`, in any state; unknown ids left out. */
    async many(workspaceId: string, ids: string[]): Promise<FlagView[]> {
      return (await store.flags.getMany(workspaceId, ids)).map(toFlagView);
    },

    newestInDigest,

    /** The flags digest: the newest open flags with a note as markdown for a coding agent, and where the rest are. */
    async digest(workspace: { id: string; slug: string }, agent?: string): Promise<string> {
      return renderFlagsDigest({ workspace: workspace.slug, agent, ...(await newestInDigest(workspace.id, agent)) });
    },

    async get(membership: Membership, id: string) {
      return withHistory(await found(membership.id, id));
    },

    /**
     * The flags of one chat's replies, removed ones too, each with its history and, once fixed, the live run that
     * fixed it: what the chat's page shows, read by the chat however many flags the workspace has.
     */
    async ofChat(membership: Membership, chatId: string) {
      const flags = await store.flags.ofChat(membership.id, chatId);
      return {
        flags: await Promise.all(
          flags.map(async (flag) => ({
            ...(await withHistory(flag)),
            fixed_by_run_id:
              flag.status === 'fixed' && flag.fixedByVersion && flag.evalCaseId && flag.fixedAt
                ? ((await store.evalRuns.fixing(membership.id, liveEnvironment, flag.evalCaseId, flag.fixedByVersion.id, flag.fixedAt)) ??
                  null)
                : null,
          })),
        ),
      };
    },

    /** Sets or clears the note; a fixed flag whose note changes is open again. */
    async editNote(membership: Membership, actor: string, id: string, note: string | null): Promise<FlagView & { warning?: FlagWarning }> {
      const flag = await found(membership.id, id);
      authorizeChange(membership, flag.createdBy, actor, 'flag', 'changeAnyFlag');
      const edited = toFlagView(await act(membership.id, id, actor, { kind: 'edit', note }, clock().toISOString()));
      const version = await versionOf(membership.id, flag.version.id);
      const warning = await checkNote(flaggedReply(flag.snapshot, flag.agent, version.files), edited.note);
      return { ...edited, ...(warning && { warning }) };
    },

    /** Removes the flag and its eval case; removing a removed flag changes nothing. */
    async remove(membership: Membership, actor: string, id: string): Promise<void> {
      authorizeChange(membership, (await found(membership.id, id)).createdBy, actor, 'flag', 'changeAnyFlag');
      await act(membership.id, id, actor, { kind: 'remove' }, clock().toISOString());
    },

    /**
     * An eval run on live passed the flag's case: the flag is fixed by the version the run used. `actor` is `svc` for
     * the grader's pass, or the member whose override made it pass.
     */
    async markFixed(flagId: string, versionId: string, at: string, actor = systemActor): Promise<FlagView> {
      const owner = await store.flags.workspaceOf(flagId);
      if (!owner) throw new DomainError('flag_not_found', `no flag ${flagId}`);
      const version = await store.versions.get(owner, versionId);
      if (!version) throw new DomainError('not_found', `no version ${versionId} in the flag's workspace`);
      const flag = await act(owner, flagId, actor, { kind: 'fix', version: { id: version.id, number: version.number }, at }, at);
      return toFlagView(flag);
    },

    /**
     * What a run on live that passed these cases does to their flags, to be written with the run's finish: the open
     * flag with a note of each case made from one is fixed by the run's version. A flag that cannot be fixed (removed,
     * its note cleared) keeps the state a member gave it.
     */
    async fixesBy(workspaceId: string, caseIds: string[], version: { id: string; number: number }, at: string): Promise<FlagChange[]> {
      const fixes = await Promise.all(
        caseIds.map(async (caseId) => {
          const flag = await originOf(workspaceId, caseId);
          if (flag?.status !== 'open' || !flag.note) return undefined;
          return changeOf(flag, systemActor, { kind: 'fix', version, at }, at);
        }),
      );
      return fixes.filter((fix): fix is FlagChange => fix !== undefined);
    },

    /** A member overrode to fail the live pass that fixed the flag: it is open again. */
    async markUnfixed(workspaceId: string, flagId: string, versionId: string, actor: string): Promise<FlagView> {
      const at = clock().toISOString();
      return toFlagView(await act(workspaceId, flagId, actor, { kind: 'unfix', versionId }, at));
    },

    /** Which of these chats have an open flag. */
    openIn(workspaceId: string, chatIds: string[]): Promise<Set<string>> {
      return store.flags.openIn(workspaceId, chatIds);
    },
  };
}

export type FlagService = ReturnType<typeof createFlagService>;
