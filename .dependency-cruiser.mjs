/**
 * The import rules `npm test` checks (issue 36 point 2; docs/CONVENTIONS.md "Layers"): no module imports itself back
 * at run time (a cycle through `import type` or a lazy `import()` is allowed: types are erased, a lazy part loads
 * after its importer), and nothing in src/lib imports from src/features, not even a type: what two features share
 * goes down into src/lib.
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    { name: 'lib-not-features', severity: 'error', from: { path: '^src/lib/' }, to: { path: '^src/features/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
