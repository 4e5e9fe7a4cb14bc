import type nock from 'nock';
import { repository } from './world.ts';

export const botLogin = 'svc[bot]';

export interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason?: string | null;
  labels: { name: string }[];
  user: { login: string };
  comments: string[];
}

type IssuePatch = Partial<Pick<Issue, 'body' | 'state' | 'state_reason'>> & { labels?: string[] };

/**
 * A repository's issues as GitHub keeps them, answered through nock: each call the test expects is one
 * interceptor, answered from the issues as they are at the time of the call.
 */
export class IssuesOnGithub {
  readonly issues: Issue[] = [];
  label = false;

  constructor(readonly scope: nock.Scope) {
    // The app learns its login once per process.
    scope.get('/app').optionally().reply(200, { id: 1, slug: 'svc', name: 'svc' });
  }

  add(issue: Partial<Issue> & Pick<Issue, 'number'>): this {
    this.issues.push({ title: 'Service flags', body: '', state: 'open', labels: [], user: { login: botLogin }, comments: [], ...issue });
    return this;
  }

  get(number: number): Issue {
    return this.issues.find((i) => i.number === number)!;
  }

  expectListed(): this {
    this.scope
      .get(`/repos/${repository}/issues`)
      .query({ creator: botLogin, state: 'all', per_page: '100' })
      .reply(200, () => this.issues.filter((i) => i.user.login === botLogin).toSorted((a, b) => b.number - a.number));
    return this;
  }

  expectLabelChecked(): this {
    this.scope
      .get(`/repos/${repository}/labels/service-flags`)
      .reply(() => (this.label ? [200, { name: 'service-flags' }] : [404, { message: 'Not Found' }]));
    if (!this.label) {
      this.scope
        .post(`/repos/${repository}/labels`, (body: { name: string }) => body.name === 'service-flags')
        .reply(201, () => {
          this.label = true;
          return { name: 'service-flags' };
        });
    }
    return this;
  }

  expectCreated(): this {
    this.scope.post(`/repos/${repository}/issues`).reply(201, (_uri, body) => {
      const { title, body: text, labels } = body as { title: string; body: string; labels: string[] };
      const issue: Issue = {
        number: Math.max(0, ...this.issues.map((i) => i.number)) + 1,
        title,
        body: text,
        state: 'open',
        labels: labels.map((name) => ({ name })),
        user: { login: botLogin },
        comments: [],
      };
      this.issues.push(issue);
      return issue;
    });
    return this;
  }

  expectUpdated(number: number): this {
    this.scope.patch(`/repos/${repository}/issues/${number}`).reply(200, (_uri, body) => {
      const issue = this.get(number);
      const { labels, ...patch } = body as IssuePatch;
      Object.assign(issue, patch);
      if (labels) issue.labels = labels.map((name) => ({ name }));
      return issue;
    });
    return this;
  }

  expectCommented(number: number): this {
    this.scope.post(`/repos/${repository}/issues/${number}/comments`).reply(201, (_uri, body) => {
      this.get(number).comments.push((body as { body: string }).body);
      return { id: 1, body: (body as { body: string }).body };
    });
    return this;
  }
}
