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
    http = new HttpServer({ metrics: new GatewayMetrics(), ready: async () => undefined, adminToken: TOKEN, logger: silentLogger() });
    http.adminRouter.get('/boom', async () => {
      throw new Error('Redis went away at /secret/path/state.ts:42');
    });
    const port = await http.listen(0, '127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${port}/admin/boom`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.text();
    expect(body).not.toMatch(/state\.ts|at .*\(/);
    expect(JSON.parse(body)).toEqual({ error: expect.stringMatching(/log/) });
  });
});
