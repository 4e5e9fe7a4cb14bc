#!/usr/bin/env node
// The CLI ships as TypeScript source, like every package of the repo; tsx compiles it on load.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
