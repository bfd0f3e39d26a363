// ESLint (issue 18): typescript-eslint's recommended rules and React's hooks rules on every TypeScript file.
// .astro files are checked by `astro check` (types) and knip (unused code).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.wrangler/**',
      '.astro/**',
      '.cache/**',
      'node_modules/**',
      'bench/**',
      'test-results/**',
      'public/*',
      '!public/sw.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // issue 43: browser code calls the site through src/lib/shell/api.ts, which alone decodes the envelope, and islands
    // share state through nanostores atoms (src/lib/shell/stores.ts, the session store), never window events
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/**/*.server.ts', 'src/**/*.test.ts', 'src/features/session/api-client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='CustomEvent']", message: 'Shared state lives in nanostores atoms, not window events.' },
        { selector: "CallExpression[callee.name='fetch']", message: 'Call the site through src/lib/shell/api.ts.' },
        {
          selector: "BinaryExpression[right.value='SUCCESS']",
          message: 'The API envelope is decoded once, in src/features/session/api-client.ts.',
        },
      ],
    },
  },
  { files: ['*.mjs', '*.js'], languageOptions: { globals: { process: 'readonly' } } },
  // the service worker (issue 36 point 5): a plain script in the worker's scope
  { files: ['public/sw.js'], languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } } },
  { files: ['**/*.d.ts'], rules: { '@typescript-eslint/triple-slash-reference': 'off' } }, // the vitest plugin's types come this way
  {
    rules: {
      'no-control-regex': 'off', // input checks match control characters on purpose (return paths, links, rich text)
      '@typescript-eslint/no-explicit-any': 'off', // test bodies and the JSON envelope are read as `any` on purpose
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
)
