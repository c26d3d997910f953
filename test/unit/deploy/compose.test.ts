import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../src/runtime/platforms.js';
import {
  chatbridgeVariables,
  composeFile,
  envFile,
  interpolate,
  listeningPort,
  read,
  READ_DIRECTLY,
  shutdownGraceMs,
  type ComposeService,
} from './deploy-files.js';

/**
 * docker-compose.yml (docs/deployment.md): Redis, two gateway replicas behind nginx, Mailpit as the
 * handoff SMTP server, and a `whatsapp` profile. No Docker engine runs here, so the file is read
 * and every setting it gives chatbridge is checked against the code that reads it.
 */
const { services } = composeFile();
const EXAMPLE_ENV = 'deploy/compose/example.env';
const example = envFile(EXAMPLE_ENV);

/** The services that run chatbridge: built from this repository. */
const chatbridgeServices = Object.entries(services).filter(([, service]) => service.build?.context === '.');
const gateways = chatbridgeServices.filter(([, service]) => service.profiles === undefined);
const whatsapp = chatbridgeServices.filter(([, service]) => service.profiles?.includes('whatsapp'));

/** The environment a chatbridge container gets: the env file (when `.env` is the example), then `environment:` over it. */
function containerEnv(service: ComposeService, dotEnv: Record<string, string>): Record<string, string> {
  const environment = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), dotEnv)]),
  );
  return { ...dotEnv, ...environment };
}

/** host:port of a URL the container calls (healthcheck, REDIS_URL, SMTP_URL). */
const hostAndPort = (url: string): { host: string; port: string } => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: parsed.port };
};

describe('docker-compose.yml', () => {
  it('runs Redis, Mailpit, a load balancer, two gateway replicas and, in the whatsapp profile, one WhatsApp gateway', () => {
    expect(services.redis?.image).toMatch(/^redis:/);
    expect(services.mailpit?.image).toMatch(/^axllent\/mailpit:/);
    expect(services.loadbalancer?.image).toMatch(/^nginx:/);
    expect(gateways.map(([, service]) => service.build?.target)).toEqual(['gateway', 'gateway']);
    expect(whatsapp.map(([, service]) => service.build?.target)).toEqual(['whatsapp']);
  });

  it('the load balancer sends to every gateway replica on the port it listens on, and to nothing else', () => {
    const nginx = read('deploy/compose/nginx.conf');
    const upstreams = [...nginx.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((match) => `${match[1]}:${match[2]}`);
    const port = listeningPort({});
    expect(upstreams.sort()).toEqual(gateways.map(([name]) => `${name}:${port}`).sort());
    expect(services.loadbalancer?.volumes).toContain('./deploy/compose/nginx.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it.each(chatbridgeServices)('%s sets only variables chatbridge reads', (_, service) => {
    const known = chatbridgeVariables();
    expect(Object.keys(service.environment ?? {}).filter((name) => !known.has(name))).toEqual([]);
    expect(service.env_file).toEqual([{ path: '.env', required: false }]);
  });

  it(`${EXAMPLE_ENV} (the .env to copy) names only variables chatbridge reads, set or commented out`, () => {
    const known = chatbridgeVariables();
    expect([...Object.keys(example.set), ...example.commented].filter((name) => !known.has(name))).toEqual([]);
  });

  it('the variables read outside the settings list are still read where the list says', () => {
    for (const [name, file] of Object.entries(READ_DIRECTLY))
      expect(read(file), `${file} reads ${name}`).toContain(name);
  });

  it.each(chatbridgeServices)(
    '%s starts with the example .env and without one, WhatsApp only in the whatsapp service',
    (name, service) => {
      for (const dotEnv of [example.set, {}]) {
        const config = loadGatewayConfig({ env: containerEnv(service, dotEnv) });
        expect(config.bots[0]?.whatsapp).toEqual(
          expect.objectContaining({ enabled: service.profiles?.includes('whatsapp') ?? false }),
        );
      }
      if (service.profiles === undefined)
        expect(loadGatewayConfig({ env: containerEnv(service, example.set) }).bots[0]?.telegram, name).toEqual(
          expect.objectContaining({ mode: 'webhook' }),
        );
    },
  );

  it.each(chatbridgeServices)(
    '%s uses the compose Redis and hands handoff e-mails to Mailpit unless .env names a mail server',
    (_, service) => {
      const config = loadGatewayConfig({ env: containerEnv(service, {}) });
      expect(hostAndPort(config.redisUrl ?? '')).toEqual({ host: 'redis', port: '6379' });
      expect(hostAndPort(config.smtp.url ?? '')).toEqual({ host: 'mailpit', port: '1025' });
      expect(
        loadGatewayConfig({ env: containerEnv(service, { SMTP_URL: 'smtp://mail.example.com:587' }) }).smtp.url,
      ).toBe('smtp://mail.example.com:587');
    },
  );

  it.each(chatbridgeServices)('%s is healthy when /readyz answers on the port it listens on', (_, service) => {
    const port = listeningPort(containerEnv(service, example.set));
    const url = /https?:\/\/[^'"\s)]+/.exec(service.healthcheck?.test.join(' ') ?? '')?.[0] ?? '';
    expect(url).toBe(`http://127.0.0.1:${port}/readyz`);
  });

  it.each(chatbridgeServices)('%s is given longer to stop than its answers in progress are', (_, service) => {
    const seconds = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]);
    expect(seconds * 1000).toBeGreaterThan(shutdownGraceMs(containerEnv(service, example.set)));
  });

  it('starts each service once what it needs is healthy, and everything waited on has a health check', () => {
    for (const [, service] of chatbridgeServices) {
      expect(service.depends_on).toEqual({
        redis: { condition: 'service_healthy' },
        mailpit: { condition: 'service_healthy' },
      });
    }
    expect(services.loadbalancer?.depends_on).toEqual(
      Object.fromEntries(gateways.map(([name]) => [name, { condition: 'service_healthy' }])),
    );
    const waitedOn = new Set(Object.values(services).flatMap((service) => Object.keys(service.depends_on ?? {})));
    for (const name of waitedOn) expect(services[name]?.healthcheck?.test, `${name} has a healthcheck`).toBeDefined();
  });
});
