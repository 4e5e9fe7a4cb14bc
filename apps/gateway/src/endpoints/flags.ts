import { createFlagInput, flag, flagList, flagListQuery, flagWithHistory, updateFlagInput, workspacePath } from '@svc/domain';
import { renderFlagsDigest } from '@svc/digest';
import { z } from 'zod';
import { endpoint } from '../http/endpoint.ts';

const flagPath = workspacePath.extend({ id: z.string().max(100) });

export const flagEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/developer/v1/:workspace/flags',
    operationId: 'listFlags',
    summary: 'The open flags (or those of `status`), oldest first: each a frozen view of the flagged reply and its turn',
    tags: ['flags'],
    auth: true,
    params: workspacePath,
    query: flagListQuery,
    status: 200,
    response: { description: 'The flags', schema: flagList },
    errors: ['workspace_not_found'],
    handle: ({ core, caller, params, query }) => core.flags.list.query({ ...params, ...query }, caller),
  }),
  endpoint({
    method: 'get',
    path: '/api/developer/v1/:workspace/flags.md',
    operationId: 'flagsDigest',
    summary: 'The digest of the open flags with a note, as markdown for a coding agent: the same text `svc flags` prints',
    tags: ['flags'],
    auth: true,
    params: workspacePath,
    status: 200,
    response: { description: 'The digest', schema: z.string(), contentType: 'text/markdown; charset=utf-8' },
    errors: ['workspace_not_found'],
    handle: async ({ core, caller, params }) => {
      // Read back through the schema: the wire's JSON types leave `unknown` members (a tool's response) optional.
      const { flags } = flagList.parse(await core.flags.list.query({ ...params, status: 'open' }, caller));
      return renderFlagsDigest({ workspace: params.workspace, flags });
    },
  }),
  endpoint({
    method: 'post',
    path: '/api/developer/v1/:workspace/flags',
    operationId: 'createFlag',
    summary:
      'Flag an agent reply, with a note saying what it should have said (any member but a reader); a note makes an eval case. A reply has one live flag: `already_flagged` names it',
    tags: ['flags'],
    auth: true,
    params: workspacePath,
    body: createFlagInput,
    status: 201,
    response: { description: 'The flag', schema: flag },
    errors: ['workspace_not_found', 'message_not_found', 'not_an_agent_reply', 'already_flagged'],
    handle: ({ core, caller, params, body }) => core.flags.create.mutate({ ...params, ...body }, caller),
  }),
  endpoint({
    method: 'get',
    path: '/api/developer/v1/:workspace/flags/:id',
    operationId: 'getFlag',
    summary: 'A flag with its history: who changed it, from which state to which, and when',
    tags: ['flags'],
    auth: true,
    params: flagPath,
    status: 200,
    response: { description: 'The flag', schema: flagWithHistory },
    errors: ['workspace_not_found', 'flag_not_found'],
    handle: ({ core, caller, params }) => core.flags.get.query(params, caller),
  }),
  endpoint({
    method: 'patch',
    path: '/api/developer/v1/:workspace/flags/:id',
    operationId: 'updateFlag',
    summary: 'Set or clear the note (and with it the eval case); a fixed flag whose note changes is open again',
    tags: ['flags'],
    auth: true,
    params: flagPath,
    body: updateFlagInput,
    status: 200,
    response: { description: 'The flag', schema: flag },
    errors: ['workspace_not_found', 'flag_not_found', 'flag_removed'],
    handle: ({ core, caller, params, body }) => core.flags.update.mutate({ ...params, ...body }, caller),
  }),
  endpoint({
    method: 'delete',
    path: '/api/developer/v1/:workspace/flags/:id',
    operationId: 'removeFlag',
    summary: 'Remove a flag (in any state) and its eval case; the reply can be flagged again',
    tags: ['flags'],
    auth: true,
    params: flagPath,
    status: 204,
    response: { description: 'Removed' },
    errors: ['workspace_not_found', 'flag_not_found'],
    handle: ({ core, caller, params }) => core.flags.remove.mutate(params, caller),
  }),
];
