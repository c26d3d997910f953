/**
 * What the deployment tests read: the Dockerfile's stages, docker-compose.yml, the Kubernetes
 * manifests, and the list of environment variables chatbridge reads, so that the files are
 * checked against the code they configure and cannot drift from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { envOverrides } from '../../../src/config/index.js';
import { resolvePolicy, type GatewayPolicy } from '../../../src/gateway/index.js';
import { loadGatewayConfig, PLATFORMS } from '../../../src/runtime/platforms.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/**
 * Variables chatbridge reads outside the override list (src/config/env.ts and the platform
 * modules), each with the file that reads it: a test checks the file still does.
 */
export const READ_DIRECTLY: Readonly<Record<string, string>> = {
  CHATBRIDGE_CONFIG: 'src/config/loader.ts',
  PUPPETEER_EXECUTABLE_PATH: 'adapters/whatsapp/browser.ts',
};

/** Every environment variable chatbridge reads: the settings' overrides (`chatbridge` applies them at start) and READ_DIRECTLY. */
export function chatbridgeVariables(): Set<string> {
  return new Set([...envOverrides(PLATFORMS).map(({ env }) => env), ...Object.keys(READ_DIRECTLY)]);
}

/** The port the gateway listens on with this environment (PORT, else the configuration's default). */
export function listeningPort(env: Record<string, string>): number {
  return loadGatewayConfig({ env }).port;
}

/** How long a stopping gateway with this environment lets answers in progress finish, as the runtime resolves it. */
export function shutdownGraceMs(env: Record<string, string>): number {
  const { gateway } = loadGatewayConfig({ env });
  return resolvePolicy(
    Object.fromEntries(Object.entries(gateway).filter(([, value]) => value !== undefined)) as Partial<GatewayPolicy>,
  ).stopGraceMs;
}

// --- Dockerfile --------------------------------------------------------------------------------

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  /** The image or earlier stage it starts from. */
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile's stages in order: comments dropped, continued lines joined. */
export function dockerfileStages(text: string): Stage[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, name, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile: "${line}" comes before any FROM`);
      stage.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** A stage's instructions with those of the stages it is built FROM, oldest first: what its image has. */
export function imageInstructions(stages: readonly Stage[], stage: Stage): Instruction[] {
  const parent = stages.find((candidate) => candidate.name !== undefined && candidate.name === stage.from);
  return [...(parent ? imageInstructions(stages, parent) : []), ...stage.instructions];
}

/** Names set by ENV instructions (`ENV A=1 B=2` and the old `ENV A 1`). */
export function envNames(instructions: readonly Instruction[]): string[] {
  return instructions
    .filter((i) => i.keyword === 'ENV')
    .flatMap(({ args }) => {
      if (!args.includes('=')) return [args.split(/\s+/)[0] ?? ''];
      return [...args.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=/g)].map((match) => match[1] ?? '');
    });
}

// --- YAML files --------------------------------------------------------------------------------

/** docker-compose.yml as Compose reads it (`<<` merge keys applied). */
export function composeFile(): ComposeFile {
  return parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
}

export interface ComposeService {
  image?: string;
  build?: { context: string; target?: string };
  environment?: Record<string, string>;
  env_file?: { path: string; required?: boolean }[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  profiles?: string[];
  stop_grace_period?: string;
  ports?: string[];
  volumes?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** Variables of an env file (`NAME=value`), and those only shown commented out (`# NAME=value`). */
export function envFile(path: string): { set: Record<string, string>; commented: string[] } {
  const set: Record<string, string> = {};
  const commented: string[] = [];
  for (const line of read(path).split('\n')) {
    const active = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (active?.[1]) set[active[1]] = active[2] ?? '';
    const shown = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
    if (shown?.[1]) commented.push(shown[1]);
  }
  return { set, commented };
}

/** A Compose value with its `${NAME:-default}` references replaced, as Compose does with the variables given. */
export function interpolate(value: string, variables: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_, name: string, fallback: string | undefined) => {
      const given = variables[name];
      return given !== undefined && given !== '' ? given : (fallback ?? '');
    },
  );
}

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  resources?: string[];
}

export const KUBERNETES_DIR = 'deploy/kubernetes';

/** Every object of every manifest in deploy/kubernetes, with the file it is in. */
export function kubernetesObjects(): { file: string; object: KubernetesObject }[] {
  return readdirSync(join(ROOT, KUBERNETES_DIR))
    .filter((name) => name.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(read(`${KUBERNETES_DIR}/${file}`)).map((document) => {
        if (document.errors.length > 0)
          throw new Error(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
        return { file, object: document.toJS() as KubernetesObject };
      }),
    );
}
