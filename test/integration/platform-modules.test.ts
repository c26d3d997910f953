/**
 * "A new platform is one folder and one line of the list": a throw-away fourth platform,
 * "pigeon", defined entirely here as a PlatformModule (its config section, an environment
 * variable, a webhook route, an in-memory adapter, a doctor check, its conversation ids,
 * and a markup of its own, BBCode, with its renderer as an adapter's markdown.ts would bring
 * it), is added to this build's list the way adapters/index.ts would add it — and the config
 * loader, the runtime (HTTP routes, gateway, embedded service, admin API), the core's
 * rendering and splitting, and doctor serve it without a line of theirs changed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryAdapter, MEMORY_CAPABILITIES, MemoryPlatform } from '../../fakes/memory/index.js';
import { platformChecks } from '../../src/cli/doctor-command.js';
import { ConfigError, configSecrets, loadConfig, type Config } from '../../src/config/index.js';
import { serializeNested, type MarkupRenderer, type MarkupSyntax, type PlatformModule } from '../../src/contract.js';
import { silentLogger } from '../../src/logger.js';
import { PLATFORMS } from '../../src/runtime/platforms.js';
import { startRuntime, type Runtime } from '../../src/runtime/runtime.js';
import { RedisStateStore } from '../../src/state/index.js';
import { testRedisUrl } from '../support/redis.js';

// ---- The fourth platform: everything its folder would hold.

/** What one slip carries, every character written on it counted, tags included. */
const PIGEON_SLIP = 300;

/** The pigeon network's side: where users write and where the bot's answers land. */
const pigeonNetwork = new MemoryPlatform({ name: 'pigeon', rules: { maxMessageLength: PIGEON_SLIP } });

// Its markup (its folder's markdown.ts): BBCode, built from the contract's building blocks.
const BBCODE_TAGS = { bold: 'b', italic: 'i', strike: 's', code: 'icode', quote: 'quote' } as const;
const BBCODE: MarkupSyntax = {
  // BBCode has no escape: what is not a known tag is shown as written.
  escape: (text) => text,
  open: (mark) => {
    if (mark.kind === 'link') return `[url=${mark.href.replace(/]/g, '%5D')}]`;
    if (mark.kind === 'pre') return mark.lang ? `[code=${mark.lang}]` : '[code]';
    return `[${BBCODE_TAGS[mark.kind]}]`;
  },
  close: (mark) => (mark.kind === 'link' ? '[/url]' : mark.kind === 'pre' ? '[/code]' : `[/${BBCODE_TAGS[mark.kind]}]`),
};
const pigeonMarkup: MarkupRenderer = {
  name: 'bbcode',
  layout: { linkMarks: true, marksInLinks: 'all-but-code', quoteMark: true },
  serialize: (runs) => serializeNested(runs, BBCODE),
  measure: (rendered) => rendered.length,
  countsVisibleText: false,
};

const pigeonSection = z
  .object({
    token: z.string().startsWith('pg-', 'a pigeon token starting with pg-'),
    loft: z.string().default('roof'),
  })
  .strict();
type PigeonSection = z.infer<typeof pigeonSection>;

const pigeonModule: PlatformModule<PigeonSection> = {
  name: 'pigeon',
  configSection: pigeonSection,
  env: [{ env: 'PIGEON_TOKEN', key: 'token', type: 'string' }],
  conversationId: { pattern: /^coop-\d+$/, expected: 'coop-<number>, e.g. coop-7' },
  isConfigured: () => true,
  create(section, { bot }) {
    // Pigeons cannot take a message back: no edits, each answer arrives whole.
    const adapter = createMemoryAdapter({
      platform: pigeonNetwork,
      bot,
      methods: { edit: false },
      capabilities: { ...MEMORY_CAPABILITIES, markup: pigeonMarkup, maxMessageLength: PIGEON_SLIP },
    });
    // The network posts each message to this webhook, signed with the bot's token.
    const webhook = express.Router();
    webhook.post('/', express.json(), async (req, res) => {
      if (req.get('x-pigeon-token') !== section.token)
        return void res.status(401).json({ error: 'wrong x-pigeon-token' });
      const { coop, text } = req.body as { coop: string; text: string };
      await pigeonNetwork.userSends(bot, coop, text);
      res.status(202).json({ queued: true });
    });
    return Object.assign(adapter, { routes: [{ path: `/pigeon/${bot}`, handler: webhook }] });
  },
  doctor: async (section, bot) => `bot "${bot}" flies from the ${section.loft}`,
  secrets: (section) => ({ values: [section.token] }),
};

/** This build's list with one line added. */
const platforms: readonly PlatformModule[] = [...PLATFORMS, pigeonModule];

// ---- The test.

const TOKEN = 'pg-secret-4711';
const ADMIN_TOKEN = 'admin-token-for-pigeons-0123';

function configFile(yaml: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cb-pigeon-')), 'chatbridge.yaml');
  writeFileSync(path, yaml);
  return path;
}

/** The BBCode tags of a slip, in order: each opened one is closed, innermost first, within the slip. */
function unbalancedTags(slip: string): string[] {
  const open: string[] = [];
  for (const [, closing, tag] of slip.matchAll(/\[(\/?)(b|i|s|icode|code|url|quote)(?:=[^\]]*)?\]/g)) {
    if (!closing) open.push(tag!);
    else if (open.pop() !== tag) return [`[/${tag}] closes nothing open`];
  }
  return open.map((tag) => `[${tag}] never closed`);
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('a fourth platform added as a module, with no edit outside its folder and the list', () => {
  const prefix = `cbtest:pigeon:${randomUUID().slice(0, 8)}:`;
  const file = configFile(`keyPrefix: "${prefix}"\nconsole: off\nport: 0\nhost: 127.0.0.1\n`);
  let config: Config;
  let runtime: Runtime | undefined;
  let base: string;

  beforeAll(async () => {
    config = loadConfig({ platforms, file, env: { PIGEON_TOKEN: TOKEN, REDIS_URL: testRedisUrl(), ADMIN_TOKEN } });
    runtime = await startRuntime(config, silentLogger(), { platforms });
    base = `http://127.0.0.1:${runtime.port}`;
  }, 60_000);

  afterAll(async () => {
    await runtime?.stop();
    const state = new RedisStateStore({ url: testRedisUrl(), prefix });
    await state.deleteByPrefix();
    await state.close();
  });

  it('is configured by its environment variable, and its secret is kept out of the log', () => {
    expect(config.bots[0]!.pigeon).toEqual({ token: TOKEN, loft: 'roof' });
    expect(configSecrets(config, platforms)).toContain(TOKEN);
  });

  it('has its configuration errors named by its variable and its path', () => {
    const fromEnv = configError(() => loadConfig({ platforms, file, env: { PIGEON_TOKEN: 'crow-1' } }));
    expect(fromEnv.problems).toEqual(['PIGEON_TOKEN (bots.0.pigeon.token): a pigeon token starting with pg-']);
    const fromFile = configError(() =>
      loadConfig({
        platforms,
        env: {},
        file: configFile('bots:\n  - id: main\n    pigeon:\n      token: pg-1\n      lof: attic\n'),
      }),
    );
    expect(fromFile.message).toMatch(/bots\.0\.pigeon: Unrecognized key: "lof"/);
    // Without its line in the list, its section is refused like any unknown setting.
    const withSection = configFile('bots:\n  - id: main\n    pigeon:\n      token: pg-1\n');
    expect(loadConfig({ platforms, env: {}, file: withSection }).bots[0]!.pigeon).toEqual({
      token: 'pg-1',
      loft: 'roof',
    });
    expect(configError(() => loadConfig({ platforms: PLATFORMS, env: {}, file: withSection })).message).toMatch(
      /bots\.0: Unrecognized key: "pigeon"/,
    );
  });

  it("serves its webhook route on the gateway's port, and a message it delivers is answered by the embedded service through the gateway", async () => {
    const post = (token: string) =>
      fetch(`${base}/pigeon/main`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pigeon-token': token },
        body: JSON.stringify({ coop: 'coop-7', text: 'Do you have homes for sale in Austin?' }),
      });
    expect((await post('pg-forged')).status).toBe(401);
    const accepted = await post(TOKEN);
    expect(accepted.status).toBe(202);
    await vi.waitFor(() => expect(pigeonNetwork.textsIn('coop-7').join('\n')).toContain('MLS TX-10452'), {
      timeout: 30_000,
      interval: 100,
    });
  }, 60_000);

  it("gets the gateway's replies in its own markup, split within its slip and each slip whole", async () => {
    await pigeonNetwork.userSends('main', 'coop-8', '/listings Austin');
    await vi.waitFor(() => expect(pigeonNetwork.textsIn('coop-8').join('\n')).toContain('TX-20318'), {
      timeout: 30_000,
      interval: 100,
    });
    const slips = pigeonNetwork.textsIn('coop-8');
    const all = slips.join('\n');
    expect(all).toContain('[b]Listings in Austin[/b] · page 1 of 1 (3 in all)');
    expect(all).toContain('[url=https://homes.example/austin/1812-elm-st]details[/url]');
    expect(all).not.toMatch(/\*\*|\]\(/);
    // Three listings do not fit one slip: the page is cut where the pigeon counts, and no slip leaves a tag open.
    expect(slips.length).toBeGreaterThan(1);
    for (const slip of slips) {
      expect(slip.length).toBeLessThanOrEqual(PIGEON_SLIP);
      expect(unbalancedTags(slip), slip).toEqual([]);
    }
  }, 60_000);

  it('has its conversation ids checked by the admin API against the shape it declares', async () => {
    const get = (id: string) =>
      fetch(`${base}/admin/conversations/${encodeURIComponent(id)}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
    const refused = await get('main:pigeon:sparrow');
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: string }).error).toBe(
      '"sparrow" is not a pigeon conversation id; expected coop-<number>, e.g. coop-7.',
    );
    expect((await get('main:pigeon:coop-7')).status).toBe(200);
  });

  it('is listed and checked by doctor', async () => {
    const checks = platformChecks(config, platforms);
    expect(checks.map((check) => check.name)).toEqual(['pigeon:main']);
    await expect(checks[0]!.run()).resolves.toBe('bot "main" flies from the roof');
  });
});
