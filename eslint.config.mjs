// ESLint with typescript-eslint's type-checked recommendations over every TypeScript file we write,
// and ESLint's own recommendations over the plain JavaScript scripts (.mjs, .cjs).
// `npm test` runs it (npm run lint). Our own additions are the few rules below. None of the rules
// here is about layout, which is Prettier's alone (npm run format, .prettierrc): a layout rule added
// here would fight it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The Node globals the scripts use (the `globals` package is not a dependency of ours).
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
    'TextEncoder',
    'TextDecoder',
    'AbortController',
    'AbortSignal',
    'fetch',
    'performance',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tmp/**',
      'test/bench/out/**',
      'test/fixtures/**',
      'test/corpus/**',
      'server/src/core/structure/generated/**',
    ],
  },
  js.configs.recommended,
  {
    // A disable comment that no longer disables anything goes.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // No silent catch: an empty handler must at least say why in a comment. `no-empty` covers
      // `catch {}` blocks; `no-empty-function` covers `.catch(() => {})` callbacks (and, with them,
      // every other empty function: a deliberate no-op says so in a comment too).
      'no-empty': ['error', { allowEmptyCatch: false }],
      'no-empty-function': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'no-empty-function': 'off',
      '@typescript-eslint/no-empty-function': 'error',
      // node:test's describe/test/it/suite (and their .skip/.only/.todo) return promises the runner
      // itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'test', 'it', 'suite', 'skip', 'only', 'todo'],
            },
          ],
        },
      ],
      // The names also let a test context's `t.test()` through, and on Node 20 a subtest that is
      // not awaited is cancelled when its parent ends: that one must be awaited.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ExpressionStatement > CallExpression[callee.type='MemberExpression'][callee.property.name='test']",
          message:
            'Await the subtest: on Node 20 a t.test() that is not awaited is cancelled when its parent test ends.',
        },
      ],
    },
  },
);
