/**
 * Feature folders that lean on each other in a circle (issue 36 point 2; docs/CONVENTIONS.md "Where code goes"): a feature
 * may use another only if that one never comes back to it, through any number of folders. Counted at run time, as the
 * module rule counts (an `import type` is erased, a lazy `import()` loads after its importer) and in the product's
 * code only (a test may bring two features together). What two features both need goes down into src/lib; what
 * composes several features (the reader's object) sits above them in src/objects.
 */
export default {
  forbidden: [
    {
      name: 'no-feature-cycle',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/features/[^/]+$' },
      to: { path: '^src/features/[^/]+$', circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(test|spec)\\.tsx?$', dynamic: true },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
