// Lint for the whole workspace: typescript-eslint strict, React hooks, and the boundaries of
// DESIGN.md section 2 (a feature or module is used by others only through what it exports).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'reports/**', 'test-results/**', 'playwright-report/**', 'apps/api/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `!` marks a value the code has just checked or a row the query guarantees; banning it
      // would only trade it for casts.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Who may do what is packages/domain's permissions table (can, canManageArea), which the API
      // enforces too; a role compared by hand in a screen drifts from it unseen.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'BinaryExpression[operator=/^[!=]==?$/]:matches([left.value=/^(admin|agent|courier)$/], [right.value=/^(admin|agent|courier)$/])',
          message: "Compare no role by hand: ask packages/domain's can() or canManageArea() (add the capability there if it is missing).",
        },
        {
          selector: 'SwitchCase > Literal.test[value=/^(admin|agent|courier)$/]',
          message: "Switch on no role by hand: ask packages/domain's can() or canManageArea() (add the capability there if it is missing).",
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/elements': [
        { type: 'domain', pattern: 'packages/domain/src' },
        { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
        { type: 'web-app', pattern: 'apps/web/src/app' },
        { type: 'web-public', pattern: 'apps/web/src/public' },
        { type: 'web-shared', pattern: 'apps/web/src/(components|lib)' },
        { type: 'api-module', pattern: 'apps/api/src/modules/*', capture: ['module'] },
        { type: 'api-core', pattern: 'apps/api/src' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            // The domain is pure: it imports nothing of the apps.
            { from: { element: { type: 'domain' } }, disallow: { to: { element: { type: '!domain' } } } },
            // A feature reaches another feature only through its index.ts.
            {
              from: { element: { type: 'web-feature' } },
              disallow: {
                to: {
                  element: { type: 'web-feature', captured: { feature: '!{{ from.element.captured.feature }}' }, fileInternalPath: '!index.ts' },
                },
              },
            },
            // The public tracking page is its own small bundle: nothing of the staff app.
            { from: { element: { type: 'web-public' } }, disallow: { to: { element: { type: ['web-feature', 'web-app', 'web-shared'] } } } },
            // Shared widgets know no feature.
            { from: { element: { type: 'web-shared' } }, disallow: { to: { element: { type: ['web-feature', 'web-app'] } } } },
            // A module reaches another module only through its index.ts.
            {
              from: { element: { type: 'api-module' } },
              disallow: {
                to: { element: { type: 'api-module', captured: { module: '!{{ from.element.captured.module }}' }, fileInternalPath: '!index.ts' } },
              },
            },
          ],
        },
      ],
    },
  },
);
