import type { Command } from 'commander';
import { createTransport } from 'nodemailer';
import { doorSectionOf, redisSetting, redisTopology, sectionKeyOf, type Config } from '../config/index.js';
import type { PlatformModule } from '../contract.js';
import { untrustedProxyHint } from '../handoff/index.js';
import { configuredPlatforms, loadGatewayConfig, PLATFORMS } from '../runtime/platforms.js';
import { createStateStore, describeTopology, RedisStateStore } from '../state/index.js';
import { checkNodeRelease } from './node-releases.js';
import { checkUpstream, type UpstreamCheckResult } from './upstream-check.js';

export interface Check {
  name: string;
  /** What was found (a "warn" result: working as set up, but something the operator should know); rejects with what to fix. */
  run(): Promise<string | UpstreamCheckResult>;
}

/**
 * One check per (bot, platform) configured whose module has one, named `<platform>:<bot>`, and one per
 * operator door configured (`bots[].handoff.<platform>`), named `handoff-<platform>:<bot>`.
 */
export function platformChecks(config: Config, platforms: readonly PlatformModule[]): Check[] {
  return config.bots.flatMap((bot) => [
    ...configuredPlatforms(bot, platforms).flatMap(({ platform, section }) => {
      const doctor = platform.doctor?.bind(platform);
      return doctor ? [{ name: `${platform.name}:${bot.id}`, run: () => doctor(section, bot.id) }] : [];
    }),
    ...platforms.flatMap((platform) => {
      if (platform.kind === 'local' || !platform.operatorDoor?.doctor) return [];
      const door = doorSectionOf(bot, platform);
      if (door === undefined) return [];
      const doctor = platform.operatorDoor.doctor.bind(platform.operatorDoor);
      const own = bot[sectionKeyOf(platform)];
      return [{ name: `handoff-${platform.name}:${bot.id}`, run: () => doctor(door, own, bot.id) }];
    }),
  ]);
}

/** Handoff e-mails: connects and greets the SMTP server (and logs in, when the URL has credentials). */
async function smtpCheck(config: Config): Promise<string> {
  if (!config.smtp.url) return 'SMTP_URL is not set: handoff e-mails wait in the outbox until it is';
  const url = new URL(config.smtp.url);
  url.searchParams.set('connectionTimeout', '10000');
  url.searchParams.set('greetingTimeout', '10000');
  const transport = createTransport(url.toString());
  try {
    await transport.verify();
    return `${new URL(config.smtp.url).host} accepts connections (from ${config.smtp.from})`;
  } catch (error) {
    throw new Error(`SMTP_URL (smtp.url) ${new URL(config.smtp.url).host}: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    transport.close();
  }
}

/**
 * A reverse proxy the gateway was not told to trust, as far as the configuration shows it: PUBLIC_URL on https or on
 * another port than the gateway's. The gateway also says so in its log at the first inbox request with X-Forwarded-For.
 */
function proxyCheck(config: Config): UpstreamCheckResult {
  if (config.http.trustProxy !== false && config.http.trustProxy !== 0)
    return {
      status: 'ok',
      detail: `TRUST_PROXY is ${String(config.http.trustProxy)}: X-Forwarded-For names the client`,
    };
  const hint = untrustedProxyHint(config);
  if (hint) return { status: 'warn', detail: hint };
  return {
    status: 'ok',
    detail:
      'TRUST_PROXY is not set, and PUBLIC_URL shows no proxy in front (checked: https, or another port than PORT); ' +
      'the gateway warns in its log if inbox requests carry X-Forwarded-For',
  };
}

function checksFor(config: Config, platforms: readonly PlatformModule[]): Check[] {
  const checks: Check[] = [
    { name: 'node', run: async () => checkNodeRelease(process.version, new Date()) },
    {
      name: 'configuration',
      run: async () => `${config.bots.length} bot(s); upstream ${config.upstream.baseUrl ?? 'embedded'}`,
    },
    {
      name: 'state',
      run: async () => {
        const topology = redisTopology(config);
        if (!topology) return 'in memory (REDIS_URL unset: state is lost on restart and not shared)';
        let connectionError: Error | undefined;
        const state = createStateStore({ topology, onConnectionError: (error) => (connectionError = error) });
        const where = describeTopology(topology);
        try {
          await state.ping();
          // One server: its URL says it all; a cluster or Sentinel: what it is made of now.
          if (topology.kind === 'single' || !(state instanceof RedisStateStore)) return where;
          return `${where}: ${await state.describeConnection()}`;
        } catch (error) {
          const target =
            topology.kind === 'single'
              ? `${redisSetting(topology)} ${topology.url}`
              : `${where}, set by ${redisSetting(topology)},`;
          throw new Error(`${target} is not reachable (${connectionError?.message ?? (error as Error).message})`, {
            cause: error,
          });
        } finally {
          await state.close();
        }
      },
    },
    { name: 'upstream', run: () => checkUpstream(config) },
  ];
  checks.push(...platformChecks(config, platforms));
  checks.push({ name: 'smtp', run: () => smtpCheck(config) });
  checks.push({ name: 'proxy', run: async () => proxyCheck(config) });
  return checks;
}

/** `chatbridge doctor`: checks the Node release, config, Redis, the upstream (a real GetSession + ClientAsk) and every platform credential. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check configuration, Redis, the upstream (one real question) and every platform credential')
    .action(async () => {
      const config = loadGatewayConfig();
      let failed = 0;
      for (const check of checksFor(config, PLATFORMS)) {
        try {
          const found = await check.run();
          const { status, detail } = typeof found === 'string' ? { status: 'ok', detail: found } : found;
          process.stdout.write(`${status.padEnd(6)}${check.name}: ${detail}\n`);
        } catch (error) {
          failed++;
          process.stdout.write(`FAIL  ${check.name}: ${(error as Error).message}\n`);
        }
      }
      if (failed > 0) process.exitCode = 1;
    });
}
