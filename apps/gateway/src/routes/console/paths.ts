/** Where a workspace's pages start. */
export const workspacePath = (slug: string) => `/w/${encodeURIComponent(slug)}`;

/** The page that asks before revoking a token; a POST to it revokes. */
export const revokePath = (tokenId: string) => `/tokens/${encodeURIComponent(tokenId)}/revoke`;
