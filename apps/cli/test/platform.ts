import { startGateway } from '@svc/gateway';
import { platformWith } from '@svc/test-platform';

/** The test platform: core, the eval runner and the gateway, over real HTTP on free ports. */
export const { startPlatform } = platformWith(startGateway);
export { createMemberWithToken, createUserWithToken, type PlatformOptions, type TestPlatform } from '@svc/test-platform';
