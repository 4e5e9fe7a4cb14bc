// Types only, erased from the JavaScript: core is a devDependency of this package, so installing a caller of core
// installs none of core's own dependencies (its databases' drivers, Redis, mail).
export type { AppRouter, ChannelAnswer, ChannelCall } from '@svc/core';
