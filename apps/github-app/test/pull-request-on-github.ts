import { createHash } from 'node:crypto';
import type nock from 'nock';
import { repository } from './world.ts';

export interface Comment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
}

const blobSha = (content: string) => createHash('sha1').update(content).digest('hex');

/**
 * A pull request's conversation as GitHub keeps it, answered through nock: each call the test expects is one
 * interceptor, answered from the comments as they are at the time of the call.
 */
export class PullRequestOnGithub {
  readonly comments: Comment[] = [];
  /** The pull request's head commit, as GitHub answers it now. */
  head = '';
  private nextId = 900;

  /** @param scope where the calls the test expects are registered: its `pendingMocks()` lists those not made yet */
  constructor(
    public scope: nock.Scope,
    readonly number = 7,
  ) {}

  private get path() {
    return `/repos/${repository}/issues/${this.number}/comments`;
  }

  /** A comment someone else wrote. */
  addComment(body: string, user: Comment['user'] = { login: 'ada', type: 'User' }): this {
    this.comments.push({ id: this.nextId++, body, user });
    return this;
  }

  /** The head commit's tree and each file's blob, as the git data API serves them. */
  expectHeadRead(sha: string, files: Record<string, string>, { blobs = true } = {}): this {
    const entries = Object.entries(files).map(([path, content]) => ({
      path,
      mode: '100644',
      type: 'blob',
      sha: blobSha(content),
      size: content.length,
    }));
    this.scope
      .get(`/repos/${repository}/git/trees/${sha}`)
      .query({ recursive: 'true' })
      .reply(200, {
        sha,
        truncated: false,
        tree: [{ path: 'README.md', mode: '100644', type: 'blob', sha: blobSha('readme'), size: 6 }, ...entries],
      });
    for (const content of blobs ? Object.values(files) : []) {
      this.scope
        .get(`/repos/${repository}/git/blobs/${blobSha(content)}`)
        .reply(200, { sha: blobSha(content), encoding: 'base64', content: Buffer.from(content).toString('base64') });
    }
    return this;
  }

  /** The pull request read for its head commit (before a run's result is written). */
  expectPullRequestRead(): this {
    this.scope.get(`/repos/${repository}/pulls/${this.number}`).reply(200, () => ({ number: this.number, head: { sha: this.head } }));
    return this;
  }

  expectCommentsListed(): this {
    this.scope
      .get(this.path)
      .query(true)
      .reply(200, () => this.comments);
    return this;
  }

  expectCommentCreated(): this {
    this.scope.post(this.path).reply(201, (_uri, body) => {
      const comment: Comment = { id: this.nextId++, body: (body as { body: string }).body, user: { login: 'svc[bot]', type: 'Bot' } };
      this.comments.push(comment);
      return comment;
    });
    return this;
  }

  expectCommentEdited(): this {
    this.scope.patch(/^\/repos\/acme\/shop\/issues\/comments\/\d+$/).reply(200, (uri, body) => {
      const comment = this.comments.find((c) => uri.endsWith(`/comments/${c.id}`));
      if (!comment) return { message: 'Not Found' };
      comment.body = (body as { body: string }).body;
      return comment;
    });
    return this;
  }

  /** The app's comments on the pull request: the ones starting with its marker. */
  get appComments(): Comment[] {
    return this.comments.filter((c) => c.user.type === 'Bot' && c.body.startsWith('<!-- svc:pr-preview -->'));
  }
}
