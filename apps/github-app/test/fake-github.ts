import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { closeServer, listen } from '@svc/server-kit';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

interface Comment {
  id: number;
  body: string;
  user: { login: string; type: 'Bot' };
}

const blobSha = (content: string) => createHash('sha1').update(content).digest('hex');

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/**
 * The part of GitHub's REST API a pull request preview uses, over real HTTP on 127.0.0.1: installation tokens,
 * one repository's files at its head commit, the pull request and its comments. It records every request.
 */
export async function startFakeGithub(options: { repository: string; pullNumber: number; head: string; files: Record<string, string> }) {
  const requests: RecordedRequest[] = [];
  const comments: Comment[] = [];
  const blobs = new Map(Object.values(options.files).map((content) => [blobSha(content), content]));
  const repo = `/repos/${options.repository}`;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://github.test');
      const body = await jsonBody(req);
      requests.push({ method: req.method ?? '', path: url.pathname, body });
      const send = (status: number, data: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      const route = `${req.method} ${url.pathname}`;
      if (/^POST \/app\/installations\/\d+\/access_tokens$/.test(route))
        return send(201, { token: 'ghs_fake', expires_at: '2099-01-01T00:00:00Z' });
      if (/^GET \/repos\/[^/]+\/[^/]+\/labels\/[^/]+$/.test(route)) return send(200, { name: 'service-flags' });
      if (route === `GET ${repo}/git/trees/${options.head}`) {
        const tree = Object.entries(options.files).map(([path, content]) => ({
          path,
          type: 'blob',
          mode: '100644',
          sha: blobSha(content),
          size: content.length,
        }));
        return send(200, { sha: options.head, truncated: false, tree });
      }
      const blob = route.match(new RegExp(`^GET ${repo}/git/blobs/(\\w+)$`));
      if (blob && blobs.has(blob[1]!))
        return send(200, { sha: blob[1], encoding: 'base64', content: Buffer.from(blobs.get(blob[1]!)!).toString('base64') });
      if (route === `GET ${repo}/pulls/${options.pullNumber}`)
        return send(200, { number: options.pullNumber, head: { sha: options.head } });
      if (route === `GET ${repo}/issues/${options.pullNumber}/comments`) return send(200, comments);
      if (route === `POST ${repo}/issues/${options.pullNumber}/comments`) {
        const comment: Comment = {
          id: 1000 + comments.length,
          body: (body as { body: string }).body,
          user: { login: 'svc[bot]', type: 'Bot' },
        };
        comments.push(comment);
        return send(201, comment);
      }
      const edit = route.match(new RegExp(`^PATCH ${repo}/issues/comments/(\\d+)$`));
      const edited = edit && comments.find((c) => c.id === Number(edit[1]));
      if (edited) {
        edited.body = (body as { body: string }).body;
        return send(200, edited);
      }
      return send(404, { message: 'Not Found' });
    })();
  });
  const url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  return { url, requests, comments, stop: () => closeServer(server) };
}
