import { platformWith } from '@svc/test-platform';
import { startGateway } from '../src/index.ts';

/** The test platform with this gateway. */
export const { startPlatform, startGatewayWithoutCore } = platformWith(startGateway);
export { createMemberWithToken, createUserWithToken, type PlatformOptions, type TestPlatform } from '@svc/test-platform';
