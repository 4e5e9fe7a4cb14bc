import type { Router } from 'express';
import { clientIp } from '../../http/mount.ts';
import type { PageKit } from './page-kit.tsx';
import { DeviceApprovalPage } from './pages/device-approval.tsx';
import { DeviceCodePage } from './pages/device-code.tsx';
import { DeviceDecidedPage } from './pages/device-decided.tsx';
import { DeviceSettledPage } from './pages/device-settled.tsx';
import { sendPage } from './render.tsx';
import { checkCsrf } from './session.ts';

/** Approving or denying a CLI sign-in (the device authorization flow's verification page). */
export function deviceRoutes(routes: Router, { core, session, page, viewer }: PageKit): void {
  routes.get(
    '/device',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      const code = typeof req.query.user_code === 'string' ? req.query.user_code : '';
      if (!code) {
        sendPage(res, <DeviceCodePage viewer={signedIn} />);
        return;
      }
      const request = await core.deviceAuth.view.query({ user_code: code, ip: clientIp(req) }, session.caller(req));
      if (request.status === 'pending') sendPage(res, <DeviceApprovalPage viewer={signedIn} request={request} />);
      else sendPage(res, <DeviceSettledPage viewer={signedIn} request={{ ...request, status: request.status }} />);
    }),
  );

  routes.post(
    '/device',
    page(async (req, res) => {
      const signedIn = await viewer(req, res);
      if (!signedIn) return;
      checkCsrf(req, signedIn.csrfToken);
      const { user_code: code, decision } = req.body as { user_code?: string; decision?: string };
      const choice = decision === 'approved' ? 'approved' : 'denied';
      await core.deviceAuth.decide.mutate({ user_code: code ?? '', decision: choice, ip: clientIp(req) }, session.caller(req));
      sendPage(res, <DeviceDecidedPage viewer={signedIn} decision={choice} />);
    }),
  );
}
