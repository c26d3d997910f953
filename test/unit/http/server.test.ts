import { afterEach, describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../../src/http/metrics.js';
import { HttpServer } from '../../../src/http/server.js';
import { silentLogger } from '../../../src/logger.js';

const TOKEN = 'an-admin-token-of-16+';

describe('HttpServer', () => {
  let http: HttpServer | undefined;
  afterEach(async () => {
    await http?.close();
  });

  it('answers a route that throws with a JSON error, never an HTML page with the stack trace', async () => {
    http = new HttpServer({
      metrics: new GatewayMetrics(),
      ready: async () => undefined,
      adminToken: TOKEN,
      logger: silentLogger(),
    });
    http.adminRouter.get('/boom', async () => {
      throw new Error('Redis went away at /secret/path/state.ts:42');
    });
    const port = await http.listen(0, '127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${port}/admin/boom`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.text();
    expect(body).not.toMatch(/state\.ts|at .*\(/);
    expect(JSON.parse(body)).toEqual({ error: expect.stringMatching(/log/) });
  });

  it('reaches a part mounted after listen() (once the port is known), and still answers 404 and errors in JSON around it', async () => {
    http = new HttpServer({ metrics: new GatewayMetrics(), ready: async () => undefined, logger: silentLogger() });
    const port = await http.listen(0, '127.0.0.1');
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    expect((await fetch(url('/late/hello'))).status).toBe(404);

    http.mount('/late', (req, res, next) => {
      if (req.path === '/boom') return next(new Error('failed inside the late part'));
      res.json({ path: req.path });
    });
    expect(await (await fetch(url('/late/hello'))).json()).toEqual({ path: '/hello' });
    const failed = await fetch(url('/late/boom'));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: expect.stringMatching(/log/) });
    const unknown = await fetch(url('/elsewhere'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No route for GET /elsewhere' });
  });
});
