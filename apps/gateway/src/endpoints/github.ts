import { createGithubLinkInput, githubLink, githubLinkList, repositoryPath, workspacePath } from '@svc/domain';
import { endpoint } from '../http/endpoint.ts';

const links = '/api/developer/v1/:workspace/github/links';
const linkPath = workspacePath.extend(repositoryPath.shape);

export const githubEndpoints = [
  endpoint({
    method: 'get',
    path: links,
    operationId: 'listGithubLinks',
    summary:
      'The GitHub repositories linked to the workspace, each with whether the GitHub App is installed there (it acts only where it is)',
    tags: ['github'],
    auth: true,
    params: workspacePath,
    status: 200,
    response: { description: 'The links', schema: githubLinkList },
    errors: ['workspace_not_found'],
    handle: ({ core, caller, params }) => core.github.links.list.query(params, caller),
  }),
  endpoint({
    method: 'post',
    path: links,
    operationId: 'createGithubLink',
    summary:
      'Link a repository (owner or developer): the GitHub App previews its pull requests and keeps its `service-flags` issue. A repository is linked to one workspace at most, whatever the case of its name',
    tags: ['github'],
    auth: true,
    params: workspacePath,
    body: createGithubLinkInput,
    status: 201,
    response: { description: 'The link', schema: githubLink },
    errors: ['workspace_not_found', 'forbidden', 'invalid_repository', 'repository_linked'],
    handle: ({ core, caller, params, body }) => core.github.links.create.mutate({ ...params, ...body }, caller),
  }),
  endpoint({
    method: 'delete',
    path: `${links}/:owner/:repo`,
    operationId: 'removeGithubLink',
    summary: 'Unlink a repository (owner or developer): the GitHub App stops acting on it for this workspace',
    tags: ['github'],
    auth: true,
    params: linkPath,
    status: 204,
    response: { description: 'Unlinked' },
    errors: ['workspace_not_found', 'forbidden', 'invalid_repository', 'link_not_found'],
    handle: ({ core, caller, params }) =>
      core.github.links.remove.mutate({ workspace: params.workspace, repository: `${params.owner}/${params.repo}` }, caller),
  }),
];
