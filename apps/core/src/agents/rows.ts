import type { AgentVersion, ChatMessage } from './store.ts';

/** How both stores keep versions and chat messages: the bundle's files and a turn's trace as JSON text. */
interface VersionRow extends Omit<AgentVersion, 'files'> {
  files: string;
}

interface MessageRow extends Omit<ChatMessage, 'trace'> {
  trace: string | null;
}

export const toVersion = (row: VersionRow): AgentVersion => ({ ...row, files: JSON.parse(row.files) as Record<string, string> });

export const versionRow = (version: AgentVersion): VersionRow => ({ ...version, files: JSON.stringify(version.files) });

export const toMessage = ({ trace, ...row }: MessageRow): ChatMessage => ({ ...row, trace: trace ? (JSON.parse(trace) as unknown) : null });

export const messageRow = (m: ChatMessage): MessageRow => ({ ...m, trace: m.trace === null ? null : JSON.stringify(m.trace) });
