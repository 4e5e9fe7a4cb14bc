import type { Endpoint } from '../http/endpoint.ts';
import { healthEndpoints } from './health.ts';
import { workspaceEndpoints } from './workspaces.ts';

/** Every public endpoint: mounted by the app and described by /openapi.json. */
export const endpoints: Endpoint[] = [...healthEndpoints, ...workspaceEndpoints];
