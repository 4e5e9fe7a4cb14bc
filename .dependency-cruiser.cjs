// @ts-check
/**
 * What may import what, checked by `pnpm lint` (dependency-cruiser): no import cycles, packages below apps, and the
 * layers inside core. Run it alone with `pnpm exec depcruise apps packages`.
 */

/** Core's sources: its domain folders (`<domain>/service*.ts`, `store.ts`, `sqlite.ts`, `postgres.ts`) and the rest. */
const core = '^apps/core/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module must not import itself through others: a cycle loads in an order that depends on who imports first, ' +
        'and what it imports may still be undefined. Move what both sides need into a module of its own.',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment:
        'A workspace package must not import an app: apps are built from packages, never the other way round. A type ' +
        "alone is allowed (it is erased from the JavaScript): a client package names its server's router type. The " +
        'test platform assembles the apps into a platform for tests and so stands above them.',
      from: { path: '^packages/', pathNot: '^packages/test-platform/' },
      to: { path: '^apps/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-platform-stands-alone',
      severity: 'error',
      comment:
        "Core's platform folder is what its domains build on: it imports nothing else of core, but for the types of " +
        'the composed services and store (the tRPC context, the metrics that read every backlog) and migrations.ts, ' +
        'which sits at the top of src/ only to find the migration folders beside it, in the sources and in dist/.',
      from: { path: `${core}platform/` },
      to: { path: core, pathNot: [`${core}platform/`, `${core}(migrations|services|store)\\.ts$`] },
    },
    {
      name: 'core-platform-types-of-the-composition-only',
      severity: 'error',
      comment: 'What the platform reads of the composition (src/services.ts, src/store.ts) is types, erased at runtime.',
      from: { path: `${core}platform/` },
      to: { path: [`${core}services\\.ts$`, `${core}store\\.ts$`], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-store-not-on-services',
      severity: 'error',
      comment:
        "A store (store.ts, sqlite.ts, postgres.ts, anything under a store/ folder) is below core's services: it " +
        'must not import one. What both need goes into a module of its own.',
      // Each pattern twice, at core's top and in a folder of it: dependency-cruiser refuses nested repetitions.
      from: {
        path: [`${core}store/`, `${core}.*/store/`, `${core}(store|sqlite|postgres)\\.ts$`, `${core}.*/(store|sqlite|postgres)\\.ts$`],
      },
      to: { path: [`${core}services/`, `${core}.*/services/`, `${core}service[^/]*\\.ts$`, `${core}.*/service[^/]*\\.ts$`] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '(^|/)\\.svc/'] },
    // Type-only imports count too: a cycle through types is still a cycle in what a reader must hold in mind, and
    // the layering rules see every import.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // The workspace's packages resolve to their sources, as TypeScript and tsx resolve them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'development', 'import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['types', 'module', 'main'],
    },
    skipAnalysisNotInRules: true,
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
    progress: { type: 'none' },
  },
};
