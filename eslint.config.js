// `npm run lint`: ESLint's and typescript-eslint's recommended rules, four type-aware rules on the
// TypeScript files (promises, exhaustive switches, type-only imports), and the layer rule of src/
// (`smartcage/layers`, from the table in scripts/lint/layers.mjs). Build output is not linted.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from './scripts/lint/globals.mjs';
import { layersRule } from './scripts/lint/layers.mjs';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'test-artifacts/',
      'bench/.build/',
      '.smartcage/',
      'src/compiler/parser.generated.*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals },
    plugins: { smartcage: { rules: { layers: layersRule } } },
    rules: {
      'smartcage/layers': 'error',
      // PHP's functions and the sanitisers match control characters on purpose (NUL, C0, DEL).
      'no-control-regex': 'off',
      // `catch {}` where a failure means "not there" (optional files, best-effort cleanup).
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A `let` assigned once after a closure that reads it is declared before it on purpose.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Type-aware rules (D190). The project service finds each file's tsconfig (the root one, and
    // forms-ui's and the browser tests' own), so the types are the ones `npm run typecheck` sees.
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A host call, a render or a write that nobody awaits fails unseen: await it, or `void` it
      // where the comment says who handles the failure.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch over a tagged union without `default` names every case, so a new tag is a lint error.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      // Type-only imports are written `import type`: they vanish from the output (and from the layer
      // rule). `import('pg')` in a type stays allowed: it names an optional peer loaded lazily.
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    // The VS Code extension is a CommonJS module: VS Code loads extensions with require().
    files: ['editors/vscode/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
