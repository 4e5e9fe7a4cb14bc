/**
 * The author of the versions the GitHub App deploys: a user row every store holds from the start (a migration
 * makes it), whose "email" is no address, so no one signs in as it and versions show it as their author.
 */
export const githubAppUser = { id: 'usr_github_app', email: 'GitHub App' } as const;

/** A repository linked to a workspace by a member: the only way the GitHub App comes to act for a workspace. */
export interface GithubLinkRecord {
  workspaceId: string;
  /** `owner/name` as the member gave it; matched case-insensitively. */
  repository: string;
  createdBy: string;
  createdAt: string;
}

/** Where the GitHub App is installed, as its installation webhooks said. */
export interface GithubInstallationRecord {
  /** `owner/name`, matched case-insensitively. */
  repository: string;
  installationId: number;
  updatedAt: string;
}

/** A pull request preview's run: what the app needs to write the result into the pull request's comment. */
export interface PreviewTargetRecord {
  runId: string;
  workspaceId: string;
  repository: string;
  pullNumber: number;
  installationId: number;
  headSha: string;
  createdAt: string;
}

export type EventKind = 'run_finished' | 'flags_issue';

/** Something the GitHub App must do, kept by core until done: an app restarted meanwhile still does it. */
export interface EventRecord {
  id: string;
  kind: EventKind;
  /** Makes an event once per thing it is about: a second enqueue with the same kind and key is a no-op. */
  key: string;
  payload: Record<string, unknown>;
  /** Not handed out before. */
  availableAt: string;
  attempts: number;
  claimId: string | null;
  claimedUntil: string | null;
  doneAt: string | null;
  lastError: string | null;
  createdAt: string;
}

/** What the GitHub App's work needs kept: links, installations, deliveries, preview targets and the event outbox. */
export interface GithubStore {
  githubLinks: {
    /** Links a repository; false when it is linked already (to this workspace or another). */
    create(link: GithubLinkRecord): Promise<boolean>;
    list(workspaceId: string): Promise<GithubLinkRecord[]>;
    /** Every link of every workspace: the daily job's list. */
    all(): Promise<GithubLinkRecord[]>;
    /** The link of a repository, whichever workspace has it. */
    find(repository: string): Promise<GithubLinkRecord | undefined>;
    remove(workspaceId: string, repository: string): Promise<boolean>;
  };
  githubInstallations: {
    /** Records the repositories an installation gained and lost. */
    sync(installationId: number, added: string[], removed: string[], at: string): Promise<void>;
    /** Forgets every repository of an installation (the app was uninstalled). */
    removeInstallation(installationId: number): Promise<void>;
    find(repository: string): Promise<GithubInstallationRecord | undefined>;
  };
  githubDeliveries: {
    /** Claims a webhook delivery by its id; false when it was claimed before. */
    claim(deliveryId: string, at: string): Promise<boolean>;
    /** Forgets a claimed delivery whose handling failed, so that its redelivery is handled. */
    release(deliveryId: string): Promise<void>;
    /** Deletes up to `limit` deliveries received before `before` (long past GitHub's redeliveries); answers how many. */
    purge(before: string, limit: number): Promise<number>;
  };
  previewTargets: {
    create(target: PreviewTargetRecord): Promise<void>;
    get(runId: string): Promise<PreviewTargetRecord | undefined>;
    /**
     * Targets whose run finished or was cancelled with no `run_finished` event (keyed by run id) made for it: a core
     * that stopped between the two makes them when it starts again.
     */
    unannounced(limit: number): Promise<PreviewTargetRecord[]>;
  };
  events: {
    /** Enqueues an event unless one of the same kind and key exists; true when this call made it. */
    enqueue(event: EventRecord): Promise<boolean>;
    /** Claims up to `max` events that are available and not done, nor claimed by someone until after `now`. */
    claim(max: number, now: string, until: string, claimId: () => string): Promise<EventRecord[]>;
    get(id: string): Promise<EventRecord | undefined>;
    /** Marks a claimed event done; false when the claim is not this one any more. */
    done(id: string, claimId: string, at: string): Promise<boolean>;
    /** Gives a claimed event back, to be handed out again from `availableAt`. */
    retry(id: string, claimId: string, availableAt: string, error: string): Promise<boolean>;
  };
}
