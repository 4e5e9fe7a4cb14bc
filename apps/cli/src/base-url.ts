/** The server the CLI talks to when neither --base-url nor SVC_BASE_URL names one: local mode's gateway. */
export const defaultBaseUrl = 'http://localhost:8080';
