import type { Router } from 'express';
import { evalCaseRoutes } from './eval-case-routes.tsx';
import { evalRunRoutes } from './eval-run-routes.tsx';
import type { PageKit } from './page-kit.tsx';

/**
 * Eval cases and runs in the console: an agent's cases (add, edit and remove those added by hand), the workspace's
 * runs, and a run's results with a person's pass or fail. Core decides who may and checks every value.
 */
export function evalRoutes(routes: Router, kit: PageKit): void {
  evalCaseRoutes(routes, kit);
  evalRunRoutes(routes, kit);
}
