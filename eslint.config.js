// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.puppeteerrc.cjs', 'dist/**', 'node_modules/**', 'coverage/**', '.wwebjs_auth/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // The core must never import a platform library (DESIGN.md §2).
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/gateway/**/*.ts', 'src/format/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['grammy', '@grammyjs/*', '@slack/*', 'whatsapp-web.js', '**/adapters/**'],
            message: 'The gateway core never imports a platform library or an adapter.' },
        ],
      }],
    },
  },
  {
    files: ['adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/src/upstream/**', '**/src/service/**'],
          message: 'An adapter never calls the upstream; go through the gateway core.' }],
      }],
    },
  },
);
