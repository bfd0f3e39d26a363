/**
 * The import rules `npm test` checks (issue 36 point 2; docs/CONVENTIONS.md "Where code goes"): no module imports itself back
 * at run time (a cycle through `import type` or a lazy `import()` is allowed: types are erased, a lazy part loads
 * after its importer), nothing in src/lib imports from src/features or src/objects, not even a type (what two features
 * share goes down into src/lib), and a feature imports the objects that compose features (src/objects: the reader's
 * object) for their type only, the type of the stub it calls them through. Cycles between feature folders:
 * .dependency-cruiser.features.mjs.
 */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    { name: 'lib-not-features', severity: 'error', from: { path: '^src/lib/' }, to: { path: '^src/(features|objects)/' } },
    {
      name: 'features-not-objects',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: '^src/objects/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
