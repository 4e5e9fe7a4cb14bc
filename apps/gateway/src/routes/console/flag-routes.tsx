import { flag as flagView, type FlagListQuery, flagListQuery } from '@svc/domain';
import type { Request, Router } from 'express';
import { sendChatPage } from './inbox-routes.tsx';
import { formField, type PageKit } from './page-kit.tsx';
import { pageQueryOf, queryValue } from './page-query.ts';
import { FlagsPage } from './pages/flags.tsx';
import { RemoveFlagPage } from './pages/remove-flag.tsx';
import { chatPath } from './paths.ts';
import { sendPage } from './render.tsx';

type Status = FlagListQuery['status'];

/** The note as typed; a blank textarea means no note. */
const noteField = (req: Request) => {
  const note = formField(req, 'note');
  return note.trim() === '' ? null : note;
};

/**
 * Flagging agent replies from the console: flag with a note, edit the note, remove the flag. Each change goes back
 * to the flagged reply on its chat's page; core decides who may and what each change does.
 */
export function flagRoutes(routes: Router, kit: PageKit): void {
  const { core, session, page, viewer, workspaceForm } = kit;
  /** Runs a form's change, then shows the flagged reply on its chat's page again. */
  const change = (act: (req: Request, workspace: string) => Promise<{ chat_id: string; message_id: string }>) =>
    workspaceForm(async (req, workspace) => {
      const flagged = await act(req, workspace);
      return `${chatPath(workspace, flagged.chat_id)}#${encodeURIComponent(flagged.message_id)}`;
    });

  /**
   * Flags a reply. A note the reply already meets is not saved at first: the chat's page shows it back with the
   * warning, and the form posted again (confirmed) saves it.
   */
  routes.post(
    '/w/:workspace/chats/:chat/flags',
    workspaceForm(async (req, workspace, res, signedIn) => {
      const input = { workspace, message_id: formField(req, 'message_id'), note: noteField(req) };
      if (formField(req, 'confirmed') !== 'yes') {
        const { warning } = await core.flags.check.query(input, session.caller(req));
        if (warning) {
          await sendChatPage(kit, req, res, signedIn, String(req.params.chat), {
            messageId: input.message_id,
            note: input.note ?? '',
            warning,
          });
          return undefined;
        }
      }
      const flagged = await core.flags.create.mutate(input, session.caller(req));
      return `${chatPath(workspace, flagged.chat_id)}#${encodeURIComponent(flagged.message_id)}`;
    }),
  );
  routes.post(
    '/w/:workspace/flags/:id/note',
    change((req, workspace) =>
      core.flags.update.mutate({ workspace, id: String(req.params.id), note: noteField(req) }, session.caller(req)),
    ),
  );
  routes.get(
    '/w/:workspace/flags/:id/remove',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const flag = flagView.parse(await core.flags.get.query({ workspace, id: String(req.params.id) }, session.caller(req)));
      sendPage(res, <RemoveFlagPage viewer={signedIn} workspace={workspace} flag={flag} />);
    }),
  );
  routes.post(
    '/w/:workspace/flags/:id/remove',
    change(async (req, workspace) => {
      const caller = session.caller(req);
      // The flag is read first: removing answers no chat to go back to.
      const flag = await core.flags.get.query({ workspace, id: String(req.params.id) }, caller);
      await core.flags.remove.mutate({ workspace, id: flag.id }, caller);
      return flag;
    }),
  );

  // The digest as `svc flags` prints it, for members signed in to the console: what the `service-flags` issue links to.
  routes.get(
    '/w/:workspace/flags.md',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const digest = await core.flags.digest.query({ workspace, agent: queryValue(req, 'agent') }, session.caller(req));
      res.type('text/markdown; charset=utf-8').send(digest);
    }),
  );
  routes.get(
    '/w/:workspace/flags',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const workspace = String(req.params.workspace);
      const query = pageQueryOf(req);
      const asked = queryValue(req, 'status');
      // Core checks the query as the API's: a bad value answers as a page saying which.
      const { flags, next_cursor } = await core.flags.list.query({ workspace, status: asked as Status, ...query }, session.caller(req));
      const status = flagListQuery.shape.status.parse(asked);
      const page = { limit: queryValue(req, 'limit'), paged: query.cursor !== undefined, nextCursor: next_cursor };
      sendPage(res, <FlagsPage viewer={signedIn} workspace={workspace} status={status} flags={flags} page={page} />);
    }),
  );
}
