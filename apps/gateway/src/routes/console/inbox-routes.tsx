import type { Request, Response, Router } from 'express';
import type { PageKit } from './page-kit.tsx';
import { queryValue } from './page-query.ts';
import { type FlagDraft, ReplyFlag } from './components/reply-flag.tsx';
import type { ChatMessage } from './core-answers.ts';
import { ChatPage } from './pages/chat.tsx';
import { InboxPage } from './pages/inbox.tsx';
import { sendPage } from './render.tsx';
import { roleIn, type Viewer } from './viewer.ts';

/** The inbox and each chat's page, for every member of the workspace; a chat's page shows its replies' flags. */
export function inboxRoutes(routes: Router, kit: PageKit): void {
  const { core, session, page, viewer } = kit;
  routes.get(
    '/w/:workspace/inbox',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const filters = {
        agent: queryValue(req, 'agent'),
        environment: queryValue(req, 'environment'),
        flagged: queryValue(req, 'flagged') === 'true' ? ('true' as const) : undefined,
      };
      const limit = queryValue(req, 'limit');
      const cursor = queryValue(req, 'cursor');
      const caller = session.caller(req);
      // Core checks the query as the API's: a bad value answers as a page saying which.
      const [inbox, { environments }] = await Promise.all([
        core.chats.inbox.query({ workspace, ...filters, limit: limit === undefined ? undefined : Number(limit), cursor }, caller),
        core.agents.environments.query({ workspace }, caller),
      ]);
      const agents = [...new Set(environments.flatMap((e) => e.version?.agents ?? []))].sort();
      sendPage(
        res,
        <InboxPage
          viewer={signedIn}
          workspace={workspace}
          inbox={inbox}
          agents={agents}
          environments={environments.map((e) => e.name)}
          filters={filters}
          limit={limit}
          paged={cursor !== undefined}
        />,
      );
    }),
  );

  routes.get(
    '/w/:workspace/chats/:id',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      await sendChatPage(kit, req, res, signedIn, String(req.params.id));
    }),
  );
}

/**
 * A chat's page: every message, each agent reply with its flags in place, a flagged reply marked in its flag's colour.
 * A `draft` shows its reply's flag form open with the note posted and why it was not saved yet.
 */
export async function sendChatPage(
  { core, session }: PageKit,
  req: Request,
  res: Response,
  signedIn: Viewer,
  chatId: string,
  draft?: FlagDraft,
): Promise<void> {
  const workspace = String(req.params.workspace);
  const caller = session.caller(req);
  const chat = await core.chats.get.query({ workspace, chat_id: chatId }, caller);
  // A reply's flags, removed ones too, each with its history and its fixing run: the page shows them in place.
  const { flags } = await core.flags.ofChat.query({ workspace, chat_id: chat.chat_id }, caller);
  const live = (m: ChatMessage) => flags.find((f) => f.message_id === m.id && f.status !== 'removed');
  sendPage(
    res,
    <ChatPage
      viewer={signedIn}
      workspace={workspace}
      chat={chat}
      flagOf={(m) => live(m)?.status as 'open' | 'fixed' | undefined}
      replyActions={(m) => (
        <ReplyFlag
          workspace={workspace}
          chatId={chat.chat_id}
          messageId={m.id}
          csrfToken={signedIn.csrfToken}
          actor={{ email: signedIn.email, role: roleIn(signedIn, workspace) }}
          flags={flags.filter((f) => f.message_id === m.id)}
          draft={draft?.messageId === m.id ? draft : undefined}
        />
      )}
    />,
  );
}
