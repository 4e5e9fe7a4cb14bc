import type { Endpoint } from '../http/endpoint.ts';
import { agentEndpoints } from './agents.ts';
import { deviceAuthEndpoints } from './device-auth.ts';
import { healthEndpoints } from './health.ts';
import { senderEndpoints } from './senders.ts';
import { verificationEndpoints } from './verifications.ts';
import { workspaceEndpoints } from './workspaces.ts';

/** Every public endpoint: mounted by the app and described by /openapi.json. */
export const endpoints: Endpoint[] = [
  ...healthEndpoints,
  ...workspaceEndpoints,
  ...deviceAuthEndpoints,
  ...verificationEndpoints,
  ...senderEndpoints,
  ...agentEndpoints,
];
