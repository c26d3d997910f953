#!/usr/bin/env node
// Runs the compiled build (dist/, made by `npm run build`) when there is one at least as new as every
// TypeScript source: plain JavaScript starts faster and uses far less memory than compiling on the fly.
// Otherwise (a fresh clone, or sources edited since the build) the sources run through tsx, so the CLI
// works without a build step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'src', 'main.js');

/** Whether some .ts file under src/ or adapters/ changed after `since` (ms); false where the sources are absent (an image with dist/ only). */
function sourcesChangedSince(since) {
  for (const folder of ['src', 'adapters']) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir, { recursive: true })) {
      if (String(file).endsWith('.ts') && statSync(join(dir, String(file))).mtimeMs > since) return true;
    }
  }
  return false;
}

if (existsSync(compiled) && !sourcesChangedSince(statSync(compiled).mtimeMs)) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
