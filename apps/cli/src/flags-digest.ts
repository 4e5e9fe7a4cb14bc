import { inFlagsDigest, renderFlagsDigest } from '@svc/digest';
import type { FlagView } from '@svc/domain';
import type { Api } from './api.ts';
import { everyItem, listPath } from './pages.ts';

export interface DigestRequest {
  /** Only this agent's flags. */
  agent?: string;
  /** Every open flag with a note, not only the newest the server's digest shows. */
  all?: boolean;
}

/** The open flags, every page of them, of one agent when asked. */
export const openFlags = (api: Api, workspace: string, agent?: string): Promise<FlagView[]> =>
  everyItem<FlagView>(api, `/api/developer/v1/${encodeURIComponent(workspace)}/flags`, 'flags', { status: 'open', agent });

/**
 * The flags digest: as the server sends it (the newest flags, and how to get the rest), byte for byte; or, with
 * `all`, every open flag with a note, read page by page and rendered as the server renders its digest.
 */
export async function flagsDigest(
  api: Api,
  workspace: string,
  { agent, all }: DigestRequest,
): Promise<{ bytes: Uint8Array; flags?: number }> {
  if (!all)
    return { bytes: await api.bytes(listPath(`/api/developer/v1/${encodeURIComponent(workspace)}/flags.md`, { agent }), 'text/markdown') };
  const flags = (await openFlags(api, workspace, agent)).filter(inFlagsDigest);
  return { bytes: new TextEncoder().encode(renderFlagsDigest({ workspace, flags, agent })), flags: flags.length };
}
