// ESLint with typescript-eslint's type-checked recommendations over every TypeScript file we write.
// `npm test` runs it (npm run lint). Our own additions are the few rules below.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'test/bench/out/**', 'test/fixtures/**', 'test/corpus/**', 'server/src/core/schema/generated/**', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // No silent catch: an empty handler must at least say why in a comment.
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
);
