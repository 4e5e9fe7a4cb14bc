import { InboxFilters, type InboxFilterValues } from '../components/inbox-filters.tsx';
import { Layout } from '../components/layout.tsx';
import { Pager } from '../components/pager.tsx';
import { When } from '../components/when.tsx';
import type { InboxAnswer } from '../core-answers.ts';
import { chatPath, inboxPath, withQuery } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface InboxPageProps {
  viewer: Viewer;
  workspace: string;
  inbox: InboxAnswer;
  agents: string[];
  environments: string[];
  filters: InboxFilterValues;
  /** The page size asked for in the link, kept on the next page's link. */
  limit?: string;
  /** Whether this is a later page: then a link leads back to the first. */
  paged: boolean;
}

/** A flag marks a chat when the inbox answer says so; an answer without flags marks none. */

/** The workspace's chats, newest first, narrowed by the filters, a page at a time. */
export function InboxPage({ viewer, workspace, inbox, agents, environments, filters, limit, paged }: InboxPageProps) {
  const pageLink = (cursor?: string) => withQuery(inboxPath(workspace), { ...filters, limit, cursor });
  return (
    <Layout title={`Inbox of ${workspace}`} viewer={viewer} workspace={workspace}>
      <h1>Inbox</h1>
      <p className="muted">{inbox.conversations === 1 ? '1 conversation' : `${inbox.conversations} conversations`} in this workspace.</p>
      <InboxFilters workspace={workspace} agents={agents} environments={environments} current={filters} />
      {inbox.chats.length ? (
        <table className="stacked inbox">
          <thead>
            <tr>
              <th>First message</th>
              <th>Agent</th>
              <th>Environment</th>
              <th>Version</th>
              <th>Channel</th>
              <th>Messages</th>
              <th>Started</th>
              <th>Flag</th>
            </tr>
          </thead>
          <tbody>
            {inbox.chats.map((chat) => (
              <tr key={chat.chat_id}>
                <td>
                  <a href={chatPath(workspace, chat.chat_id)}>{chat.first_visitor_message ?? 'No message yet'}</a>
                </td>
                <td data-label="Agent">{chat.agent}</td>
                <td data-label="Environment">{chat.environment}</td>
                <td data-label="Version">v{chat.version_number}</td>
                <td data-label="Channel">{chat.channel}</td>
                <td data-label="Messages">{chat.message_count}</td>
                <td data-label="Started">
                  <When at={chat.created_at} />
                </td>
                <td>{chat.flagged && <span className="flag-marker">Flagged</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No chats{filters.agent || filters.environment || filters.flagged ? ' match these filters' : ' yet'}.</p>
      )}
      <Pager link={pageLink} paged={paged} nextCursor={inbox.next_cursor} />
    </Layout>
  );
}
