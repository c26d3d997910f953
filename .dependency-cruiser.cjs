/**
 * dependency-cruiser: no import cycle in the project's sources, type-only imports included
 * (issue #19). ESLint's import-x/no-cycle skips `import type`; the layer and stage rules stay
 * in eslint.config.js.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle (type-only imports count): let the dependency run one way, or move the shared part below both.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports are kept in the graph (they vanish at run time, but still tie the modules together).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
  },
};
