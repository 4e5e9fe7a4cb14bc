/** Where a workspace's pages start. */
export const workspacePath = (slug: string) => `/w/${encodeURIComponent(slug)}`;

/** The page that asks before revoking a token; a POST to it revokes. */
export const revokePath = (tokenId: string) => `/tokens/${encodeURIComponent(tokenId)}/revoke`;

/** A workspace's members page; its forms post below it. */
export const membersPath = (slug: string) => `${workspacePath(slug)}/members`;

/** The page an invitation's mailed link opens. */
export const invitationPath = (token: string) => `/invitations/${encodeURIComponent(token)}`;
