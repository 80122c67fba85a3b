import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Layers (docs/decisions/0034-layers-repositories-and-channel-ports.md). The channel layer reaches the desk through
// channels/ports.ts, never a module (nor the composition root, which imports them all).
const NO_MODULES = {
  regex: '^(\\.\\./)+(modules/|app\\.js$|channel-ports\\.js$)',
  message: 'channels/ never imports modules/: declare what it needs in channels/ports.ts and let app.ts hand it in (decision 0034).',
};
// Only repositories touch the ORM: drizzle-orm and the db/ helpers that build queries (db/client's handle and types and
// db/errors' conflict checks stay open: services own transactions and catch conflicts). Types may be imported.
const NO_ORM = [
  { regex: '^drizzle-orm(/|$)', allowTypeImports: true, message: 'Only *.repository.ts files query the database (decision 0034).' },
  { regex: '(^|/)db/(?!client\\.js$|errors\\.js$)', allowTypeImports: true, message: 'Only *.repository.ts files query the database (decision 0034).' },
];
// A query built on a handle (db.select, tx.execute, this.db.query…) outside a repository; db.transaction stays allowed.
const QUERY_METHOD = '/^(select|selectDistinct|selectDistinctOn|insert|update|delete|execute|query|with|\\$count|\\$with)$/';
const NO_QUERIES = [
  { selector: `MemberExpression[property.name=${QUERY_METHOD}][object.name=/^(db|tx)$/]`, message: 'Only *.repository.ts files query the database (decision 0034).' },
  {
    selector: `MemberExpression[property.name=${QUERY_METHOD}][object.type='MemberExpression'][object.object.type='ThisExpression'][object.property.name=/^(db|tx)$/]`,
    message: 'Only *.repository.ts files query the database (decision 0034).',
  },
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'apps/server/drizzle/**', 'data/**', '**/*.js', '**/*.mjs', 'test-results/**', 'playwright-report/**', '.test-output/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Layers (docs/decisions/0034): channels never import modules; only repositories touch the ORM.
  {
    files: ['apps/server/src/channels/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_MODULES] }] },
  },
  {
    files: ['apps/server/src/channels/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NO_MODULES, ...NO_ORM] }], 'no-restricted-syntax': ['error', ...NO_QUERIES] },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: NO_ORM }], 'no-restricted-syntax': ['error', ...NO_QUERIES] },
  },
  {
    // Tests read arbitrary JSON answers.
    files: ['**/*.test.ts', '**/*.test.tsx', 'apps/server/src/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
