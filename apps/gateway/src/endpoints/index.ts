import type { Endpoint } from '../http/endpoint.ts';
import { agentEndpoints } from './agents.ts';
import { deviceAuthEndpoints } from './device-auth.ts';
import { evalEndpoints } from './evals.ts';
import { flagEndpoints } from './flags.ts';
import { githubEndpoints } from './github.ts';
import { healthEndpoints } from './health.ts';
import { memberEndpoints } from './members.ts';
import { senderEndpoints } from './senders.ts';
import { verificationEndpoints } from './verifications.ts';
import { workspaceEndpoints } from './workspaces.ts';

/**
 * Every public endpoint: mounted by the app and described by /openapi.json, in this order. The integrators' API
 * comes first: express tries routes in order, and it carries the traffic.
 */
export const endpoints: Endpoint[] = [
  ...verificationEndpoints,
  ...healthEndpoints,
  ...workspaceEndpoints,
  ...deviceAuthEndpoints,
  ...senderEndpoints,
  ...agentEndpoints,
  ...flagEndpoints,
  ...evalEndpoints,
  ...githubEndpoints,
  ...memberEndpoints,
];
