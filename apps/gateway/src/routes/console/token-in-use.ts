import type { DeveloperTokenView } from '@svc/domain';

/**
 * The token a person would call "in use". A console session is not a token, so for the console it is the token
 * that made the latest request (the CLI they used last); a request made with a token marks that token itself.
 * A list of tokens never used has none in use.
 */
export function tokenInUse(tokens: readonly DeveloperTokenView[]): DeveloperTokenView | undefined {
  const current = tokens.find((t) => t.current);
  if (current) return current;
  let latest: DeveloperTokenView | undefined;
  for (const t of tokens) if (t.last_used_at && (!latest?.last_used_at || t.last_used_at > latest.last_used_at)) latest = t;
  return latest;
}
