import type { Store } from '../store/store.ts';
import { type Clock, systemClock } from './clock.ts';
import { createIdentityService } from './identity.ts';
import { createWorkspaceService } from './workspaces.ts';

export interface ServiceOptions {
  store: Store;
  clock?: Clock;
}

export function createServices({ store, clock = systemClock }: ServiceOptions) {
  return {
    store,
    clock,
    identity: createIdentityService(store, clock),
    workspaces: createWorkspaceService(store, clock),
  };
}

export type Services = ReturnType<typeof createServices>;
