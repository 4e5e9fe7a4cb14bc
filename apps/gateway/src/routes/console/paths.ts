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
