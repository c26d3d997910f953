import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import type { PlatformModule } from '../contract.js';
import { coerceEnv, envOverrides } from './env.js';
import { buildConfigSchema, type Config } from './schema.js';

/** config/default.yaml, found by walking up from this file (works from src/ and from a build in dist/). */
export const DEFAULT_CONFIG_FILE = findAbove(dirname(fileURLToPath(import.meta.url)), 'config/default.yaml');

function findAbove(start: string, file: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, file))) return join(dir, file);
    // Not found: the path under the sources, so the error names where it belongs.
    if (dirname(dir) === dir) return resolve(start, '../..', file);
  }
}

/** A configuration an operator must fix; the message names each setting and what was expected. */
export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`Invalid configuration (${source}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Defaults to $CHATBRIDGE_CONFIG, then config/default.yaml. */
  file?: string;
  /**
   * The platforms whose `bots[].<name>` sections and variables are accepted (the composition
   * root passes adapters/index.ts; see src/runtime/platforms.ts). A section of a platform not
   * in the list is refused as an unknown setting.
   */
  platforms: readonly PlatformModule[];
}

export function loadConfig(options: LoadConfigOptions): Config {
  const env = options.env ?? process.env;
  const overrides = envOverrides(options.platforms);
  const file = options.file ?? env.CHATBRIDGE_CONFIG ?? DEFAULT_CONFIG_FILE;
  const raw = readYaml(file);
  const fromEnv = new Map<string, string>();
  for (const { env: name, path, type } of overrides) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setPath(raw, path, coerceEnv(value, type));
    fromEnv.set(path.join('.'), name);
  }
  const result = buildConfigSchema(options.platforms).safeParse(raw);
  if (!result.success) {
    // The variable that can set a path, for a hint when a required setting is missing.
    const settableBy = new Map(overrides.map(({ env: name, path }) => [path.join('.'), name]));
    throw new ConfigError(describeIssues(result.error.issues, fromEnv, settableBy), `${file} + environment`);
  }
  return result.data;
}

function readYaml(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      [`CHATBRIDGE_CONFIG: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`],
      file,
    );
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new ConfigError([`${file} is not valid YAML: ${(error as Error).message}`], file);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigError([`${file} must hold a mapping of settings at the top level`], file);
  return withoutNulls(parsed) as Record<string, unknown>;
}

/** A section left with only comments (`admin:`) parses as null; it means "defaults", as if absent. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

function setPath(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      node[segment] = value;
      return;
    }
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (node[segment] === undefined || node[segment] === null) node[segment] = nextIsIndex ? [{ id: 'main' }] : {};
    node = node[segment] as Record<string | number, unknown>;
  });
}

function describeIssues(
  issues: z.core.$ZodIssue[],
  fromEnv: Map<string, string>,
  settableBy: Map<string, string>,
): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    // An item of a list set by a variable (redis.cluster.nodes.1) is named by that variable.
    const envName = fromEnv.get(path) ?? fromEnv.get(issue.path.slice(0, -1).map(String).join('.'));
    const where = envName ? `${envName} (${path || '<root>'})` : path || '<root>';
    const settable = settableBy.get(path);
    const hint = !envName && settable && /received undefined/.test(issue.message) ? ` (set ${settable})` : '';
    return `${where}: ${issue.message}${hint}`;
  });
}
