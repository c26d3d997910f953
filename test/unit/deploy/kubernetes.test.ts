import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READY_CHECK_DEADLINE_MS } from '../../../src/http/server.js';
import { loadGatewayConfig } from '../../../src/runtime/platforms.js';
import {
  chatbridgeVariables,
  dockerfileStages,
  KUBERNETES_DIR,
  kubernetesObjects,
  listeningPort,
  read,
  ROOT,
  shutdownGraceMs,
  type KubernetesObject,
} from './deploy-files.js';

/**
 * deploy/kubernetes (docs/deployment.md, deploy/README.md): the gateway Deployment (2 replicas),
 * its Service and PodDisruptionBudget, the settings as a ConfigMap and a Secret, and one WhatsApp
 * Deployment. No cluster runs here: the manifests are read, and what they give chatbridge is
 * checked against the code that reads it.
 */

interface Probe {
  httpGet?: { path: string; port: string | number };
  timeoutSeconds?: number;
}
interface Container {
  name: string;
  image: string;
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}

const objects = kubernetesObjects();
const ofKind = (kind: string): KubernetesObject[] =>
  objects.filter(({ object }) => object.kind === kind).map(({ object }) => object);
const named = (kind: string, name: string): KubernetesObject => {
  const found = ofKind(kind).find((object) => object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name} in ${KUBERNETES_DIR}`);
  return found;
};
const deploymentSpec = (object: KubernetesObject): DeploymentSpec => object.spec as unknown as DeploymentSpec;
const gatewayContainer = (object: KubernetesObject): Container => {
  const container = deploymentSpec(object).template.spec.containers.find((c) => c.name === 'chatbridge');
  if (!container) throw new Error(`${object.metadata.name} has no container named chatbridge`);
  return container;
};

const gateway = named('Deployment', 'chatbridge');
const whatsapp = named('Deployment', 'chatbridge-whatsapp');
const chatbridgeDeployments: [string, KubernetesObject][] = [
  ['chatbridge', gateway],
  ['chatbridge-whatsapp', whatsapp],
];

/** The environment of a container: its ConfigMaps and Secrets (envFrom) in order, then its env list over them. */
function containerEnv(container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, named('ConfigMap', source.configMapRef.name).data);
    if (source.secretRef) Object.assign(env, named('Secret', source.secretRef.name).stringData);
  }
  for (const { name, value } of container.env ?? []) env[name] = value ?? '';
  return env;
}

/** The container port a probe or Service names (by name or number). */
function portNumber(container: Container, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

const selects = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe('Kubernetes manifests', () => {
  it('kustomization.yaml lists every manifest in the folder, and only those', () => {
    const listed = ofKind('Kustomization')[0]?.resources ?? [];
    const files = readdirSync(join(ROOT, KUBERNETES_DIR)).filter(
      (name) => name.endsWith('.yaml') && name !== 'kustomization.yaml',
    );
    expect([...listed].sort()).toEqual(files.sort());
  });

  it('the ConfigMap and the Secret hold only variables chatbridge reads', () => {
    const known = chatbridgeVariables();
    const keys = [...ofKind('ConfigMap'), ...ofKind('Secret')].flatMap((object) =>
      Object.keys({ ...object.data, ...object.stringData }),
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((name) => !known.has(name))).toEqual([]);
  });

  it.each(chatbridgeDeployments)(
    '%s sets only variables chatbridge reads, and chatbridge starts with them',
    (_, deployment) => {
      const container = gatewayContainer(deployment);
      const known = chatbridgeVariables();
      expect((container.env ?? []).map(({ name }) => name).filter((name) => !known.has(name))).toEqual([]);
      expect(() => loadGatewayConfig({ env: containerEnv(container) })).not.toThrow();
    },
  );

  it('the gateway replicas run Telegram by webhook and no browser; the WhatsApp Deployment runs the browser', () => {
    const gatewayBot = loadGatewayConfig({ env: containerEnv(gatewayContainer(gateway)) }).bots[0];
    expect(gatewayBot?.telegram).toEqual(expect.objectContaining({ mode: 'webhook' }));
    expect(gatewayBot?.whatsapp).toEqual(expect.objectContaining({ enabled: false }));
    expect(loadGatewayConfig({ env: containerEnv(gatewayContainer(whatsapp)) }).bots[0]?.whatsapp).toEqual(
      expect.objectContaining({ enabled: true }),
    );
  });

  it('runs two gateway replicas and one WhatsApp replica (more would stand by on the lease)', () => {
    expect(deploymentSpec(gateway).replicas).toBe(2);
    expect(deploymentSpec(whatsapp).replicas).toBe(1);
  });

  it.each(chatbridgeDeployments)(
    '%s: readiness at /readyz and liveness at /healthz, on the port chatbridge listens on',
    (_, deployment) => {
      const container = gatewayContainer(deployment);
      const port = listeningPort(containerEnv(container));
      expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe]) {
        expect(portNumber(container, probe?.httpGet?.port)).toBe(port);
      }
      // /readyz answers within READY_CHECK_DEADLINE_MS; a shorter probe timeout would fail a slow but ready pod.
      expect((container.readinessProbe?.timeoutSeconds ?? 1) * 1000).toBeGreaterThan(READY_CHECK_DEADLINE_MS);
    },
  );

  it("the probed paths are the HTTP server's health routes", () => {
    const server = read('src/http/server.ts');
    expect(server).toContain("get('/readyz'");
    expect(server).toContain("get('/healthz'");
  });

  it.each(chatbridgeDeployments)(
    '%s gives a stopping pod longer than the gateway lets its answers finish',
    (_, deployment) => {
      const seconds = deploymentSpec(deployment).template.spec.terminationGracePeriodSeconds ?? 30;
      expect(seconds * 1000).toBeGreaterThan(shutdownGraceMs(containerEnv(gatewayContainer(deployment))));
    },
  );

  it.each(chatbridgeDeployments)("%s runs as the image's non-root user", (_, deployment) => {
    const { securityContext } = deploymentSpec(deployment).template.spec;
    const imageUser = dockerfileStages(read('Dockerfile'))
      .at(-1)
      ?.instructions.filter((i) => i.keyword === 'USER')
      .at(-1)?.args;
    expect(securityContext?.runAsNonRoot).toBe(true);
    expect(`${securityContext?.runAsUser}`).toBe(imageUser?.split(':')[0]);
  });

  it('the Service and the PodDisruptionBudget cover the gateway pods, not the WhatsApp pod', () => {
    const podLabels = deploymentSpec(gateway).template.metadata.labels;
    const whatsappLabels = deploymentSpec(whatsapp).template.metadata.labels;
    const service = named('Service', 'chatbridge').spec as {
      selector: Record<string, string>;
      ports: { targetPort: string | number }[];
    };
    const pdb = named('PodDisruptionBudget', 'chatbridge').spec as {
      minAvailable: number;
      selector: { matchLabels: Record<string, string> };
    };
    expect(selects(service.selector, podLabels)).toBe(true);
    expect(selects(service.selector, whatsappLabels)).toBe(false);
    expect(portNumber(gatewayContainer(gateway), service.ports[0]?.targetPort)).toBe(
      listeningPort(containerEnv(gatewayContainer(gateway))),
    );
    expect(selects(pdb.selector.matchLabels, podLabels)).toBe(true);
    expect(selects(pdb.selector.matchLabels, whatsappLabels)).toBe(false);
    // At least one gateway stays up through a drain, and a drain is never blocked for good.
    expect(pdb.minAvailable).toBeGreaterThan(0);
    expect(pdb.minAvailable).toBeLessThan(deploymentSpec(gateway).replicas);
  });

  it.each(chatbridgeDeployments)('%s selects its own pods', (_, deployment) => {
    const spec = deploymentSpec(deployment);
    expect(selects(spec.selector.matchLabels, spec.template.metadata.labels)).toBe(true);
  });
});
