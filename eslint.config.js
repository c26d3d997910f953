// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * The layers of the import graph (docs/architecture.md), lowest first. A file may import
 * its own layer and the ones below, never one above:
 *   1. leaves:             src/logger.ts, src/format, src/state, src/upstream, src/contract.ts (+ src/contract/, which it re-exports)
 *   2. core and platforms: src/gateway, src/service, adapters/*
 *   3. services of the core: src/handoff, src/http, src/config
 *   4. composition root:   src/runtime, src/cli, src/main.ts (the only importers of adapters/index.ts)
 * Adapters are stricter: from src they import src/contract.ts only.
 */
const LEAVES = ['src/logger.ts', 'src/format', 'src/state', 'src/upstream', 'src/contract.ts', 'src/contract'];
const CORE = ['src/gateway', 'src/service', 'adapters'];
const CORE_SERVICES = ['src/handoff', 'src/http', 'src/config'];
const ROOT = ['src/runtime', 'src/cli', 'src/main.ts'];
/** Everything linted that is not the core (src/gateway): it sees the core through src/gateway/index.ts only. */
const OUTSIDE_THE_CORE = [...LEAVES, 'src/service', 'adapters', ...CORE_SERVICES, ...ROOT, 'fakes', 'bench'];
const SOURCES = ['src/**/*.ts', 'adapters/**/*.ts', 'fakes/memory/**/*.ts', 'bench/**/*.ts'];

/** "Nothing in `from` may be imported by `target`", with the reason. */
const zone = (target, from, message) => ({ target, from, message });

/**
 * The stages of the core (src/gateway), in the order a message travels, each a folder whose
 * index.ts is all the other stages may use (docs/architecture.md §2). Listed lowest first: a stage
 * imports only stages before it (the composition, src/gateway/gateway.ts, imports them all).
 */
const STAGES = ['stores', 'media', 'reply', 'relay', 'drain', 'turn', 'commands', 'intake'];
const stageZones = STAGES.flatMap((stage, index) => {
  const dir = `src/gateway/${stage}`;
  const others = [
    'src/gateway/*.ts',
    ...STAGES.filter((other) => other !== stage).map((other) => `src/gateway/${other}/**`),
  ];
  const later = STAGES.slice(index + 1).map((other) => `src/gateway/${other}`);
  return [
    {
      ...zone(
        others,
        dir,
        `Another part of the core uses the ${stage} stage only through src/gateway/${stage}/index.ts.`,
      ),
      except: ['./index.ts'],
    },
    ...(later.length
      ? [
          zone(
            `${dir}/**`,
            later,
            `The ${stage} stage comes before ${STAGES.slice(index + 1).join(', ')}: it imports none of them ` +
              '(take what you need as a parameter or an interface of its own).',
          ),
        ]
      : []),
    zone(
      `${dir}/**`,
      ['src/gateway/gateway.ts', 'src/gateway/index.ts'],
      `A stage never imports the composition of the core (gateway.ts, index.ts).`,
    ),
  ];
});

/**
 * The parts of the handoff (src/handoff), each a folder whose index.ts is all the other parts may use
 * (docs/architecture.md "The operator inbox"). Listed lowest first: a part imports only parts before it,
 * and takes what a later part does for it as an interface of its own (the pause publishes the changes the
 * inbox's live feed carries, and is handed the links that link/ and inbox/ sign). At the top of
 * src/handoff, the shared leaves any part may use, and the composition (install.ts, index.ts) that
 * imports them all.
 */
const HANDOFF_PARTS = ['mail', 'pause', 'digests', 'link', 'admin', 'inbox', 'threads'];
const HANDOFF_LEAVES = ['src/handoff/conversation-id.ts', 'src/handoff/keys.ts', 'src/handoff/policy.ts'];
const HANDOFF_COMPOSITION = ['src/handoff/install.ts', 'src/handoff/index.ts'];
const handoffZones = [
  ...HANDOFF_PARTS.flatMap((part, index) => {
    const dir = `src/handoff/${part}`;
    const others = [
      'src/handoff/*.ts',
      ...HANDOFF_PARTS.filter((other) => other !== part).map((other) => `src/handoff/${other}/**`),
    ];
    const later = HANDOFF_PARTS.slice(index + 1).map((other) => `src/handoff/${other}`);
    return [
      {
        ...zone(others, dir, `Another part of the handoff uses ${part}/ only through src/handoff/${part}/index.ts.`),
        except: ['./index.ts'],
      },
      ...(later.length
        ? [
            zone(
              `${dir}/**`,
              later,
              `The handoff's ${part}/ comes before ${HANDOFF_PARTS.slice(index + 1).join(', ')}: it imports none of them ` +
                '(take what you need as a parameter or an interface of its own).',
            ),
          ]
        : []),
      zone(
        `${dir}/**`,
        HANDOFF_COMPOSITION,
        'A part of the handoff never imports its composition (install.ts, index.ts).',
      ),
    ];
  }),
  zone(
    HANDOFF_LEAVES,
    [...HANDOFF_PARTS.map((part) => `src/handoff/${part}`), ...HANDOFF_COMPOSITION],
    "The handoff's shared leaves (conversation-id.ts, keys.ts, policy.ts) import none of its parts.",
  ),
  {
    ...zone(
      ['src/runtime', 'src/cli', 'src/http', 'src/main.ts', 'bench'],
      ['src/handoff'],
      'Outside src/handoff, the handoff is used through its public surface, src/handoff/index.ts.',
    ),
    except: ['./index.ts'],
  },
];

export default tseslint.config(
  {
    ignores: [
      '.puppeteerrc.cjs',
      '.dependency-cruiser.cjs',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.wwebjs_auth/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The benches' CommonJS preloads (node --require): Node's globals, require() their only way to import.
    files: ['bench/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Prettier lays the code out at 120 columns (.prettierrc.json) but leaves comments, strings and template
    // literals as written: this keeps those within a width a reader takes in without scrolling.
    plugins: { '@stylistic': stylistic },
    rules: {
      '@stylistic/max-len': ['error', { code: 160, tabWidth: 2, ignoreUrls: true }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    files: SOURCES,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // Without these, import-x cannot parse the .ts files it follows, and no-cycle sees no edges.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      // No import cycles. import-x skips type-only imports (`import type`), which vanish at run
      // time and cannot make a module see another half-initialized; a cycle of types only is
      // accepted, as the layers below still forbid the arrows that matter.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The layers (type imports included: an upward type is still an upward dependency).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone(
              LEAVES,
              [...CORE, ...CORE_SERVICES, ...ROOT],
              'A leaf (logger, format, state, upstream, contract) imports no layer above it.',
            ),
            zone(
              CORE,
              [...CORE_SERVICES, ...ROOT],
              'The core, the embedded service and the adapters import neither handoff/http/config nor the composition root; take what you need as a parameter.',
            ),
            zone(
              CORE_SERVICES,
              ROOT,
              'handoff, http and config never import the composition root (src/runtime, src/cli, src/main.ts); take the platform list as a parameter.',
            ),
            zone(
              [...LEAVES, 'src/gateway', 'src/service', ...CORE_SERVICES],
              ['adapters'],
              'Only the composition root (src/runtime, src/cli, src/main.ts) knows the platforms, and only through adapters/index.ts.',
            ),
            {
              ...zone(
                ROOT,
                ['adapters'],
                'The composition root knows the platforms only through the list, adapters/index.ts.',
              ),
              except: ['./index.ts'],
            },
            {
              ...zone(
                ['adapters'],
                ['src'],
                'An adapter imports nothing of the project but the adapter contract, src/contract.ts.',
              ),
              except: ['./contract.ts'],
            },
            {
              ...zone(
                ['fakes/memory'],
                ['src'],
                'The in-memory platform is a platform like any other: from src/ it imports the adapter contract only.',
              ),
              except: ['./contract.ts'],
            },
            zone(
              ['src/gateway'],
              ['src/service'],
              'The core reaches the Chatbot Service only through the upstream client (src/upstream), never the embedded implementation.',
            ),
            zone(
              ['src/service'],
              ['src/gateway', 'src/contract.ts', 'src/contract'],
              'The embedded Chatbot Service knows nothing of the gateway or its platforms: it is the service the gateway calls over HTTP.',
            ),
            zone(['bench'], ['test'], 'Benchmarks stand on their own: nothing in bench/ imports test/.'),
            {
              ...zone(
                OUTSIDE_THE_CORE,
                ['src/gateway'],
                'Outside src/gateway the core is reached only through its public surface, src/gateway/index.ts.',
              ),
              except: ['./index.ts'],
            },
            ...stageZones,
            ...handoffZones,
          ],
        },
      ],
    },
  },
  {
    files: ['src/gateway/**/*.ts', 'src/format/**/*.ts'],
    rules: {
      // The core must never import a platform library (docs/architecture.md).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['grammy', '@grammyjs/*', '@slack/*', 'whatsapp-web.js'],
              message: 'The gateway core never imports a platform library.',
            },
          ],
        },
      ],
    },
  },
);
