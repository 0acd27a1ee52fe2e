// Lint for the whole project: the functions and the operator console (TypeScript)
// and the scripts (ESM JavaScript). `npm test` runs it before the tests. Formatting is prettier's job,
// so no stylistic rules here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'functions/lib/**', '.cache/**', 'functions/coverage/**', 'console/dist/**'],
  },
  js.configs.recommended,
  {
    files: ['functions/**/*.ts', 'kiosk-simulator/**/*.ts', 'console/**/*.ts', 'console/**/*.tsx'],
    extends: [tseslint.configs.recommended],
    rules: {
      // Unused arguments named with a leading underscore are part of a signature.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['functions/**/*.ts', 'kiosk-simulator/**/*.ts', 'console/vite.config.ts', 'console/test/**/*.ts'],
    languageOptions: { globals: globals.node },
  },
  // The operator console runs in the browser.
  { files: ['console/src/**/*.ts', 'console/src/**/*.tsx'], languageOptions: { globals: globals.browser } },
  {
    files: ['functions/**/*.ts', 'kiosk-simulator/**/*.ts'],
    rules: {
      // Heavy modules are loaded with require() on first use, not at cold start
      // (README, Architecture; guarded by test/unit/cold-start.test.ts).
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['functions/test/**/*.ts', 'kiosk-simulator/**/*.ts', 'console/test/**/*.ts'],
    rules: {
      // Response bodies are loosely typed: each test (and each simulator caller) checks the shape it expects.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: globals.node, sourceType: 'module' },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  { files: ['**/*.cjs', 'functions/jest.config.js'], languageOptions: { sourceType: 'commonjs' } },
);
