import { describe, expect, it } from 'vitest';
import {
  chatbridgeVariables,
  dockerfileStages,
  envNames,
  imageInstructions,
  listeningPort,
  read,
  type Instruction,
  type Stage,
} from './deploy-files.js';

/**
 * The Dockerfile builds two images (docs/deployment.md): `docker build .` the gateway without a
 * browser (its last stage), `--target whatsapp` the same with Chromium. No engine runs here, so
 * the file is read: its stages, what each final image installs, copies, runs and sets.
 */
const stages = dockerfileStages(read('Dockerfile'));
const defaultStage = stages.at(-1) as Stage;
const whatsappStage = stages.find((stage) => stage.name === 'whatsapp');
const finals: [string, Stage | undefined][] = [
  ['the default image', defaultStage],
  ['the whatsapp image', whatsappStage],
];

const runs = (instructions: readonly Instruction[]): string =>
  instructions
    .filter((i) => i.keyword === 'RUN')
    .map((i) => i.args)
    .join('\n');
const last = (instructions: readonly Instruction[], keyword: string): string | undefined =>
  instructions.filter((i) => i.keyword === keyword).at(-1)?.args;

/** Variables set in the image that chatbridge does not read, and who does. */
const TOOL_VARIABLES: Record<string, string> = { NODE_ENV: 'express and other libraries: production behaviour' };

describe('Dockerfile', () => {
  it('has a whatsapp target, and the default target (the last stage) is another one', () => {
    expect(whatsappStage, 'a stage named whatsapp').toBeDefined();
    expect(defaultStage).not.toBe(whatsappStage);
  });

  it('installs Chromium in the whatsapp image only: the default image has no browser', () => {
    expect(runs(imageInstructions(stages, whatsappStage as Stage))).toMatch(/apt-get install[^\n]*\bchromium\b/);
    expect(runs(imageInstructions(stages, defaultStage))).not.toMatch(/chromium/i);
  });

  it('builds both images from one runtime stage, which has ffmpeg (audio other than voice notes, on every platform)', () => {
    expect(whatsappStage?.from).toBe(defaultStage.from);
    const runtime = stages.find((stage) => stage.name === defaultStage.from);
    expect(runtime, `a stage named ${defaultStage.from}`).toBeDefined();
    expect(runs(imageInstructions(stages, runtime as Stage))).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
  });

  it.each(finals)(
    '%s runs the compiled build: dist/ from the build stage, no TypeScript sources, no tsx',
    (_, stage) => {
      const image = imageInstructions(stages, stage as Stage);
      const copies = image.filter((i) => i.keyword === 'COPY').map((i) => i.args);
      expect(copies).toContainEqual(expect.stringMatching(/^--from=build\s+\S*\/dist\s/));
      // bin/chatbridge.js falls back to tsx only when sources are beside dist/.
      for (const copy of copies) expect(copy).not.toMatch(/(^|\s)\.?\/?(src|adapters)(\/|\s|$)|\.ts(\s|$)/);
      // tsx is a dependency (a clone runs without a build): the stage the image's node_modules come from drops it.
      const modules = copies.find((copy) => /\/node_modules\s/.test(copy));
      const source = stages.find((s) => s.name === /^--from=(\S+)/.exec(modules ?? '')?.[1]);
      expect(source, `node_modules copied from a stage: ${modules}`).toBeDefined();
      // npm ci: exactly the locked tree (issue #17), production dependencies only.
      expect(runs(imageInstructions(stages, source as Stage))).toMatch(
        /npm ci[^\n]*--omit=dev[^\n]*rm -rf[^\n]*node_modules\/tsx\b/,
      );
      expect(last(image, 'CMD')).toBe('["node", "bin/chatbridge.js", "start"]');
      const build = stages.find((s) => s.name === 'build');
      expect(runs(build?.instructions ?? [])).toMatch(/npm run build/);
      expect(runs(build?.instructions ?? [])).toMatch(/npm ci\b/);
    },
  );

  it.each(finals)(
    '%s runs as a non-root user, by number (Kubernetes runAsNonRoot can check only a number)',
    (_, stage) => {
      const user = last(imageInstructions(stages, stage as Stage), 'USER');
      expect(user).toMatch(/^[1-9]\d*(:\d+)?$/);
    },
  );

  it('builds every stage on one Node image, of the newest release line package.json engines names (README, Requirements)', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const newestLine = Math.max(...[...engines.matchAll(/\^(\d+)\./g)].map((match) => Number(match[1])));
    const bases = stages.map((stage) => stage.from).filter((from) => !stages.some((stage) => stage.name === from));
    expect(new Set(bases)).toEqual(new Set([`node:${newestLine}-bookworm-slim`]));
  });

  it.each(finals)('%s checks its health at /healthz on the port it listens on and exposes', (_, stage) => {
    const image = imageInstructions(stages, stage as Stage);
    const port = listeningPort({});
    expect(last(image, 'EXPOSE')).toBe(String(port));
    const check = last(image, 'HEALTHCHECK') ?? '';
    expect(check).toContain('/healthz');
    expect(check).toContain(`process.env.PORT||${port}`);
  });

  it.each(finals)('%s sets only variables chatbridge reads (or its libraries do, named here)', (_, stage) => {
    const known = chatbridgeVariables();
    const unknown = envNames(imageInstructions(stages, stage as Stage)).filter(
      (name) => !known.has(name) && !(name in TOOL_VARIABLES),
    );
    expect(unknown).toEqual([]);
  });
});
