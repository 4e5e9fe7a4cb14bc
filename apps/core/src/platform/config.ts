import type { ProviderSettings } from '@svc/agent-runtime';

/** Core's settings that shape behaviour (read from the environment by env.ts, or given by tests). */
export interface CoreConfig {
  localMode: boolean;
  /** Where users reach the gateway; provider callbacks and links start with it. */
  publicUrl: string;
  otp: {
    ttlSeconds: number;
    resendSeconds: number;
    /** Sends to one number within `numberWindowSeconds`. */
    numberLimit: number;
    numberWindowSeconds: number;
    /** Sends per workspace per hour. */
    workspaceHourlyLimit: number;
  };
  /**
   * The senders' APIs (WhatsApp Cloud, Twilio), and `timeoutMs`: how long a send may take, connecting included,
   * before it fails and is retried.
   */
  providers: { whatsappGraphUrl: string; twilioApiUrl: string; timeoutMs: number };
  /**
   * The outboxes' retries: backoff from `backoffBaseMs`, doubling up to `maxBackoffMs`, for as long as what is sent
   * is still of use (a code until it expires, a sign-in mail until its link does). `claimMs`: how long a claim on what
   * a core sends lasts unless renewed (5 s unless told); a core that dies mid-send leaves its items to the others after it.
   */
  delivery: { pollMs: number; backoffBaseMs: number; maxBackoffMs: number; claimMs?: number };
  /**
   * `smtpUrl` unset: local mode keeps mails in the dev mailbox; elsewhere no mail can be sent. `timeoutMs`: how long
   * connecting, the server's greeting and each exchange may take before the send fails and is retried.
   */
  mail: { smtpUrl: string | undefined; from: string; timeoutMs: number };
  /** Model providers of the agent runtime (base URLs and keys), and how long one model call may take. */
  models: ProviderSettings;
  /** Where the agents' tool calls may connect: public addresses, and these exceptions. */
  toolEgress: {
    /** Loopback and private networks too (local mode's demo backend); the platform's own ports stay refused. */
    allowPrivateNetworks: boolean;
    /** The gateway's port on this host: refused to tool calls like core's own. */
    gatewayPort?: number;
  };
  /**
   * How long records that have served their purpose are kept before the retention job deletes them, and how often
   * it runs. A pending message or mail is never deleted, whatever its age.
   */
  retention: {
    intervalMs: number;
    /** Device authorizations and sign-in links, after they expire (their page can still say "expired" meanwhile). */
    afterExpiryMs: number;
    /** Outbox messages and mails that were sent, failed or superseded, after they were queued. */
    finishedDeliveriesMs: number;
    /** The newest messages and mails the dev outbox and mailbox keep. */
    devItemsKept: number;
    /** The daily digest's days: their claims are needed the day itself; each workspace's latest mailed day is kept. */
    digestDaysMs: number;
  };
  evals: {
    /** SVC_JUDGE_MODELS, in order of preference: each agent is judged by the first of another model family. */
    judges: string[];
    /** How long a runner holds an execution it leased unless it renews the lease. */
    leaseMs: number;
  };
  /**
   * The daily digest: when it runs (a cron expression, SVC_DIGEST_CRON) in which time zone (SVC_DIGEST_TZ). Its day
   * is the date in that zone.
   */
  digest: { cron: string; timeZone: string };
  github: {
    /** How long the GitHub App holds an event it claimed: one killed mid-event leaves it to another after this. */
    eventClaimMs: number;
  };
  /** SVC_REDIS_URL: rate limits counted in Redis, shared by every core; unset, each core counts in its memory. */
  rateLimits: { redisUrl?: string; redisKeyPrefix?: string };
  /** Local mode: the demo agent's backend, which the seed points the demo's secrets at. */
  demoBackend?: { url: string; token: string };
}

export const defaultConfig: CoreConfig = {
  localMode: false,
  publicUrl: 'http://localhost:8080',
  otp: { ttlSeconds: 600, resendSeconds: 30, numberLimit: 5, numberWindowSeconds: 600, workspaceHourlyLimit: 1000 },
  providers: { whatsappGraphUrl: 'https://graph.facebook.com/v21.0', twilioApiUrl: 'https://api.twilio.com', timeoutMs: 10_000 },
  delivery: { pollMs: 1000, backoffBaseMs: 1000, maxBackoffMs: 30_000 },
  mail: { smtpUrl: undefined, from: 'svc <no-reply@svc.localhost>', timeoutMs: 10_000 },
  models: {},
  toolEgress: { allowPrivateNetworks: false },
  evals: { judges: [], leaseMs: 60_000 },
  digest: { cron: '0 8 * * *', timeZone: 'America/Santiago' },
  github: { eventClaimMs: 60_000 },
  rateLimits: {},
  retention: {
    intervalMs: 3_600_000,
    afterExpiryMs: 86_400_000,
    finishedDeliveriesMs: 7 * 86_400_000,
    devItemsKept: 1000,
    digestDaysMs: 30 * 86_400_000,
  },
};
