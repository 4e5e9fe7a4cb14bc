import type { ReactNode } from 'react';
import { Layout } from '../components/layout.tsx';
import { TurnDetails } from '../components/turn-details.tsx';
import { When } from '../components/when.tsx';
import type { ChatAnswer, ChatMessage } from '../core-answers.ts';
import { inboxPath } from '../paths.ts';
import type { Viewer } from '../viewer.ts';

export interface ChatPageProps {
  viewer: Viewer;
  workspace: string;
  chat: ChatAnswer;
  /** What goes under an agent reply, after its turn details: the place for acting on the reply. */
  replyActions?: (message: ChatMessage) => ReactNode;
  /** The state of a reply's flag (not removed), which marks the reply in its colour. */
  flagOf?: (message: ChatMessage) => 'open' | 'fixed' | undefined;
}

/** A chat as it happened: every message, oldest first, each agent reply with what the agent did to write it. */
export function ChatPage({ viewer, workspace, chat, replyActions, flagOf }: ChatPageProps) {
  return (
    <Layout title={`Chat ${chat.chat_id}`} viewer={viewer} workspace={workspace}>
      <p>
        <a href={inboxPath(workspace)}>Inbox</a>
      </p>
      <h1>Chat with {chat.agent}</h1>
      <dl>
        <dt>Environment</dt>
        <dd>{chat.environment}</dd>
        <dt>Channel</dt>
        <dd>{chat.channel}</dd>
        <dt>Started</dt>
        <dd>
          <When at={chat.created_at} />
        </dd>
        <dt>Chat</dt>
        <dd>
          <code>{chat.chat_id}</code>
        </dd>
      </dl>
      {chat.messages.length ? (
        <ol className="messages">
          {chat.messages.map((m) => (
            <li key={m.id} id={m.id} className={[`message ${m.role}`, ...(flagOf?.(m) ? [`flagged-${flagOf(m)}`] : [])].join(' ')}>
              <p className="meta">
                {m.role === 'visitor' ? 'Visitor' : chat.agent} · <When at={m.created_at} />
              </p>
              <p className="text">{m.text}</p>
              {m.role === 'agent' && (
                <>
                  <TurnDetails trace={m.trace} />
                  <div className="reply-actions">{replyActions?.(m)}</div>
                </>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No messages yet.</p>
      )}
    </Layout>
  );
}
