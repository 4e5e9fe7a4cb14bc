import { type DeliveryStatus, DomainError } from '@svc/domain';
import { isValidMetaSignature, isValidTwilioSignature } from './providers/signatures.ts';
import type { Store } from '../store.ts';
import { digestsEqual, sha256 } from '../platform/secrets.ts';
import type { Clock } from '../platform/clock.ts';
import type { ResolvedSender, SenderService } from './senders.ts';

const progress: Record<DeliveryStatus, number> = { not_sent: 0, queued: 0, sent: 1, delivered: 2, read: 3, failed: 1 };

const twilioStatuses: Record<string, DeliveryStatus> = {
  queued: 'queued',
  accepted: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
  undelivered: 'failed',
};

const metaStatuses: Record<string, DeliveryStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

interface MetaStatusPayload {
  entry?: {
    changes?: {
      value?: {
        statuses?: {
          id?: string;
          status?: string;
          biz_opaque_callback_data?: string;
          errors?: { code?: number; title?: string; message?: string }[];
        }[];
      };
    }[];
  }[];
}

const badSignature = () => new DomainError('invalid_signature', 'the webhook signature does not match');

/** Status callbacks from the providers: signature-checked, then applied to the verification's delivery status. */
export function createProviderWebhooks(store: Store, senders: SenderService, clock: Clock) {
  async function senderFor(slug: string, kind: ResolvedSender['kind']): Promise<{ workspaceId: string; sender: ResolvedSender }> {
    const workspace = await store.workspaces.findBySlug(slug);
    const sender = workspace && (await senders.resolve(workspace.id));
    if (!workspace || sender?.kind !== kind) throw badSignature();
    return { workspaceId: workspace.id, sender };
  }

  /**
   * Applies a status; statuses only move forward, since providers may deliver callbacks out of order. A status that
   * names a message still waiting to be sent (`outboxId`: its send got no answer, or its core stopped before recording
   * it) says the send arrived: the message is recorded sent, and not sent again.
   */
  async function apply(
    workspaceId: string,
    providerMessageId: string,
    status: DeliveryStatus,
    error: string | null,
    outboxId?: string | null,
  ) {
    const at = clock().toISOString();
    if (outboxId && status !== 'failed') await store.outbox.settle(workspaceId, outboxId, providerMessageId, at);
    const message = await store.outbox.findByProviderMessageId(providerMessageId);
    if (!message || message.workspaceId !== workspaceId) return;
    const verification = await store.verifications.get(workspaceId, message.verificationId);
    if (!verification) return;
    const current = verification.deliveryStatus;
    const forward =
      status === 'failed' ? progress[current] < progress.delivered : progress[status] > progress[current] || current === 'failed';
    if (!forward || status === current) return;
    await store.outbox.setDeliveryStatus(message.verificationId, status, status === 'failed' ? error : null, at);
  }

  return {
    async whatsapp(slug: string, rawBody: string, signature: string | undefined): Promise<{ applied: number }> {
      const { workspaceId, sender } = await senderFor(slug, 'whatsapp_cloud');
      const secret = sender.config.app_secret;
      if (!secret || !isValidMetaSignature(secret, rawBody, signature)) throw badSignature();
      let payload: MetaStatusPayload;
      try {
        payload = JSON.parse(rawBody) as MetaStatusPayload;
      } catch {
        throw new DomainError('invalid_json', 'the webhook body is not valid JSON');
      }
      let applied = 0;
      for (const entry of payload.entry ?? []) {
        for (const change of entry.changes ?? []) {
          for (const s of change.value?.statuses ?? []) {
            const status = metaStatuses[s.status ?? ''];
            if (!s.id || !status) continue;
            const failure = s.errors?.[0];
            await apply(
              workspaceId,
              s.id,
              status,
              failure ? `${failure.code ?? ''} ${failure.title ?? failure.message ?? ''}`.trim() : null,
              s.biz_opaque_callback_data,
            );
            applied += 1;
          }
        }
      }
      return { applied };
    },

    /** Meta's subscription handshake: echo the challenge when the verify token matches. */
    async whatsappChallenge(slug: string, mode: string, token: string, challenge: string): Promise<string> {
      const { sender } = await senderFor(slug, 'whatsapp_cloud').catch(() => {
        throw new DomainError('forbidden', 'unknown webhook');
      });
      const expected = sender.config.webhook_verify_token;
      if (mode !== 'subscribe' || !expected || !digestsEqual(sha256(token), sha256(expected)))
        throw new DomainError('forbidden', 'verify token mismatch');
      return challenge;
    },

    async twilio(slug: string, url: string, rawBody: string, signature: string | undefined): Promise<{ applied: number }> {
      const { workspaceId, sender } = await senderFor(slug, 'twilio_whatsapp');
      const params = new URLSearchParams(rawBody);
      if (!isValidTwilioSignature(sender.config.auth_token ?? '', url, params, signature)) throw badSignature();
      const sid = params.get('MessageSid');
      const status = twilioStatuses[params.get('MessageStatus') ?? ''];
      if (!sid || !status) return { applied: 0 };
      const code = params.get('ErrorCode');
      const error = code ? `${code} ${params.get('ErrorMessage') ?? ''}`.trim() : null;
      await apply(workspaceId, sid, status, error, new URL(url).searchParams.get('message'));
      return { applied: 1 };
    },
  };
}
