import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.js';

const LIMIT = 64 * 1024;
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ limits: { uploadBytes: LIMIT } });
});
afterAll(() => service.close());

const preUploadUrl = async () =>
  (await service.call<{ PreUploadUrl: string }>('/chat/User/GetPreUploadUrl', { fileName: 'clip.bin' })).body.Data!
    .PreUploadUrl;

/** A PUT whose body is sent in `parts` (chunked when no length is given), resolving with the answer. */
function put(url: string, parts: Buffer[], headers: Record<string, string | number> = {}) {
  return new Promise<{ status: number; body: { Code: number; Message: string } }>((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () =>
          resolve({ status: res.statusCode!, body: JSON.parse(text) as { Code: number; Message: string } }),
        );
    });
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('pre-upload PUT limits (issue #7 item 1)', () => {
  it('enforces the limit while a chunked body (no Content-Length) arrives', async () => {
    const url = await preUploadUrl();
    const reply = await put(
      url,
      Array.from({ length: 8 }, () => Buffer.alloc(LIMIT / 4)),
    );
    expect(reply.status).toBe(413);
    expect(reply.body.Message).toBe('The file is larger than the 64 KB this service accepts.');
  });

  it('stores a chunked body within the limit', async () => {
    const url = await preUploadUrl();
    const reply = await put(url, [Buffer.alloc(1000, 1), Buffer.alloc(1000, 2)]);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ Code: 200, Data: { Size: 2000 } });
  });

  it('refuses a second PUT to a URL while the first is still arriving, and stores the first', async () => {
    const url = await preUploadUrl();
    const first = request(url, { method: 'PUT', headers: { 'content-length': 2000 } });
    const firstReply = new Promise<number>((resolve) =>
      first.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      }),
    );
    first.write(Buffer.alloc(1000, 7));
    // The first PUT holds the URL's claim once its handler runs; the second must find it taken.
    let second: Awaited<ReturnType<typeof put>>;
    do second = await put(url, [Buffer.alloc(10)], { 'content-length': 10 });
    while (second.status === 200);
    expect(second.status).toBe(409);
    expect(second.body.Message).toBe(
      'This upload URL is already receiving a PUT; wait for it to finish, or request a new URL with /chat/User/GetPreUploadUrl.',
    );
    first.end(Buffer.alloc(1000, 7));
    expect(await firstReply).toBe(200);
  });

  it('refuses an encoded body instead of inflating it past the limit', async () => {
    const url = await preUploadUrl();
    const bomb = gzipSync(Buffer.alloc(LIMIT * 16));
    const reply = await put(url, [bomb], { 'content-encoding': 'gzip', 'content-length': bomb.length });
    expect(reply.status).toBe(415);
    expect(reply.body.Message).toBe('PUT the file\'s bytes as they are, without Content-Encoding (got "gzip").');
  });

  it('answers a corrupt gzip JSON body with 400, not 500 (issue #7 item 11)', async () => {
    const response = await fetch(`${service.url}/chat/Chatbot/ModelList`, {
      method: 'POST',
      headers: { authorization: 'test-secret-key', 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: 'not gzip at all',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      Success: false,
      Code: 400,
      Message: 'The request body is not valid gzip data; send it intact, or uncompressed without Content-Encoding.',
    });
  });
});
