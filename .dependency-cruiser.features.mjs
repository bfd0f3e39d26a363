/**
 * Feature folders that lean on each other in a circle (issue 36 point 2; docs/CONVENTIONS.md "Where code goes"): a
 * feature may use another only if that one never comes back to it, through any number of folders, not even for a type.
 * A lazy `import()` does not count (it loads after its importer), nor the objects above the features (src/objects: a
 * feature imports the reader's object for its stub's type only, which the module rules check), nor tests (a test may
 * bring two features together). What two features both need goes down into src/lib; what composes several features
 * sits above them in src/objects.
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
    exclude: { path: ['\\.(test|spec)\\.tsx?$', '^src/objects/'], dynamic: true },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
