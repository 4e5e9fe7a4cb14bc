/** Where a workspace's pages start. */
export const workspacePath = (slug: string) => `/w/${encodeURIComponent(slug)}`;

/** The page that asks before revoking a token; a POST to it revokes. */
export const revokePath = (tokenId: string) => `/tokens/${encodeURIComponent(tokenId)}/revoke`;

/** A workspace's members page; its forms post below it. */
export const membersPath = (slug: string) => `${workspacePath(slug)}/members`;

/** The page an invitation's mailed link opens. */
export const invitationPath = (token: string) => `/invitations/${encodeURIComponent(token)}`;

/** A workspace's inbox; its filters and page are query parameters. */
export const inboxPath = (slug: string) => `${workspacePath(slug)}/inbox`;

/** A chat's page: every message, each agent reply with its turn details. */
export const chatPath = (slug: string, chatId: string) => `${workspacePath(slug)}/chats/${encodeURIComponent(chatId)}`;

/** A workspace's flags, by state; flagging a reply posts below its chat, changing a flag below the flag. */
export const flagsPath = (slug: string) => `${workspacePath(slug)}/flags`;
export const flagPath = (slug: string, flagId: string) => `${flagsPath(slug)}/${encodeURIComponent(flagId)}`;
export const chatFlagsPath = (slug: string, chatId: string) => `${chatPath(slug, chatId)}/flags`;

/** An agent's eval cases; adding, editing and removing a case post below it. */
export const agentEvalsPath = (slug: string, agent: string) => `${workspacePath(slug)}/agents/${encodeURIComponent(agent)}/evals`;
export const evalCasePath = (slug: string, agent: string, caseId: string) =>
  `${agentEvalsPath(slug, agent)}/cases/${encodeURIComponent(caseId)}`;

/** A workspace's eval runs, newest first; a run's page; a person's verdict on one of its results posts below it. */
export const evalRunsPath = (slug: string) => `${workspacePath(slug)}/evals`;
export const evalRunPath = (slug: string, runId: string) => `${evalRunsPath(slug)}/${encodeURIComponent(runId)}`;
export const overridePath = (slug: string, runId: string, caseId: string) =>
  `${evalRunPath(slug, runId)}/results/${encodeURIComponent(caseId)}/override`;

/** A workspace's GitHub links: linking posts here, unlinking below the repository's own path. */
export const githubLinksPath = (slug: string) => `${workspacePath(slug)}/github/links`;
export const githubLinkPath = (slug: string, repository: string) =>
  `${githubLinksPath(slug)}/${repository.split('/').map(encodeURIComponent).join('/')}`;

/** A page's path with the query parameters that are given (a list's filters, its limit and cursor). */
export const withQuery = (path: string, params: Record<string, string | undefined>) => {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1]));
  return `${path}${query.size ? `?${query}` : ''}`;
};
