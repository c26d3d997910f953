/**
 * GET /inbox/assets/inbox.js: the page script (page-script.ts) as JavaScript. From dist/ (`npm run
 * build` compiles it beside this file) it is read as built; from the sources (tsx, a fresh clone)
 * esbuild transpiles the .ts once, at the first request. esbuild is imported only then, so the
 * Docker image, which runs dist/ without it, never needs it.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';

const here = dirname(fileURLToPath(import.meta.url));

interface Script {
  body: string;
  etag: string;
}

/** The script's JavaScript: the compiled file when there is one, else the source transpiled. */
export async function loadPageScript(folder: string = here): Promise<string> {
  const compiled = join(folder, 'page-script.js');
  if (existsSync(compiled)) return readFile(compiled, 'utf8');
  const sourceFile = join(folder, 'page-script.ts');
  if (!existsSync(sourceFile)) {
    throw new Error(
      `The inbox page script is missing: neither ${compiled} nor ${sourceFile} exists (a build without \`npm run build\`'s second step?)`,
    );
  }
  const source = await readFile(sourceFile, 'utf8');
  const { transform } = await import('esbuild');
  // es2020: what every browser an operator uses runs; the block scoping keeps its names off `window`.
  const result = await transform(source, { loader: 'ts', target: 'es2020', sourcefile: 'inbox.js' });
  return result.code;
}

/** GET /inbox/assets/inbox.js (text/javascript; ETag; works from src/ via tsx and from dist/). */
export function inboxScript(): RequestHandler {
  let script: Promise<Script> | undefined;
  const load = (): Promise<Script> => {
    script ??= loadPageScript().then((body) => ({
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    }));
    // A failed load (a file missing from a broken install) is tried again by the next request.
    script.catch(() => (script = undefined));
    return script;
  };
  return (req, res, next) => {
    load().then(({ body, etag }) => {
      res.set({
        'Content-Type': 'text/javascript; charset=utf-8',
        ETag: etag,
        // Revalidated each time (a 304 when unchanged), so a new version of the gateway is picked up at once.
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
      if (req.headers['if-none-match'] === etag) res.status(304).end();
      else res.send(body);
    }, next);
  };
}
