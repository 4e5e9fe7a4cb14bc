/** The hidden field every console form posts: the server refuses a change without it. */
export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="csrf_token" value={token} />;
