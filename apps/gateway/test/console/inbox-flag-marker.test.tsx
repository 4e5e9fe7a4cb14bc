import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { InboxChat } from '../../src/routes/console/core-answers.ts';
import { InboxPage } from '../../src/routes/console/pages/inbox.tsx';

const chat = (chat_id: string, extra: object = {}): InboxChat => ({
  chat_id,
  agent: 'support',
  environment: 'live',
  version: 'ver_1',
  version_number: 1,
  channel: 'api',
  first_visitor_message: `hello from ${chat_id}`,
  message_count: 2,
  flagged: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

it('marks the chats the inbox answer says are flagged, and only those', () => {
  const html = renderToStaticMarkup(
    <InboxPage
      viewer={{ email: 'ada@example.com', csrfToken: 'csrf', workspaces: [] }}
      workspace="acme"
      inbox={{
        conversations: 3,
        chats: [chat('chat_flagged', { flagged: true }), chat('chat_clear')],
        next_cursor: null,
      }}
      agents={['support']}
      environments={['live']}
      filters={{}}
      paged={false}
    />,
  );
  const rows = html.split('<tr>').slice(2);
  expect(rows.map((row) => [/hello from (\w+)/.exec(row)?.[1], row.includes('class="flag-marker"')])).toEqual([
    ['chat_flagged', true],
    ['chat_clear', false],
  ]);
});
