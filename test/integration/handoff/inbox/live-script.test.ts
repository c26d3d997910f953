/**
 * GET /inbox/assets/inbox.js: the page script served as JavaScript from the sources (esbuild
 * transpiles page-script.ts, as under tsx) and from a build (the compiled file beside script.js).
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxScript } from '../../../../src/handoff/inbox/live/index.js';
import { loadPageScript } from '../../../../src/handoff/inbox/live/script.js';

describe('the inbox page script', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    app.get('/inbox/assets/inbox.js', inboxScript());
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inbox/assets/inbox.js`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is served as JavaScript a browser runs as a classic <script defer>, with an ETag', async () => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    const body = await response.text();
    // Compiles as a classic script (not a module: `import`/`export` would be syntax errors there), types gone.
    expect(() => new Script(body, { filename: 'inbox.js' })).not.toThrow();
    expect(body).toContain('new EventSource(');
    expect(body).toMatch(/["']X-Inbox-Refresh["']: ["']1["']/);
    expect(body).not.toMatch(/:\s*HTMLElement\b/);
  });

  it('answers 304 to a browser that has this version', async () => {
    const etag = (await fetch(url)).headers.get('etag')!;
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await fetch(url, { headers: { 'if-none-match': '"another-version"' } })).status).toBe(200);
  });

  describe('where it comes from', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'inbox-script-'));
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    it('transpiles page-script.ts when no build is beside it (running from the sources)', async () => {
      await writeFile(
        join(folder, 'page-script.ts'),
        'const seconds: number = 2;\nwindow.setTimeout(() => undefined, seconds);\n',
      );
      const code = await loadPageScript(folder);
      expect(code).toContain('const seconds = 2;');
    });

    it('serves the compiled page-script.js of a build as it is (the image has no esbuild)', async () => {
      await writeFile(join(folder, 'page-script.js'), '"use strict";\n// compiled by tsc\n');
      expect(await loadPageScript(folder)).toBe('"use strict";\n// compiled by tsc\n');
    });

    it('says which file is missing when neither is there', async () => {
      const empty = await mkdtemp(join(tmpdir(), 'inbox-script-empty-'));
      await expect(loadPageScript(empty)).rejects.toThrow(/neither .*page-script\.js nor .*page-script\.ts/);
      await rm(empty, { recursive: true, force: true });
    });
  });
});
