import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';

const MB = 1024 * 1024;
/** Just under the service's 100 MB upload limit, as in the attack of issue #7. */
const BOGUS_BODY_BYTES = 99 * MB;
const PARALLEL_BOGUS_UPLOADS = 8;
/** The aim of issue #7: eight such uploads may not cost the process more than this. */
const RSS_GROWTH_LIMIT_BYTES = 50 * MB;
const CHUNK = Buffer.alloc(MB, 0x61);

interface PutOutcome {
  status?: number;
  body: string;
  /** A connection error before any answer (ECONNRESET …). */
  error?: string;
  /** Body bytes the client got to hand to the connection before it ended. */
  sent: number;
}

/**
 * A PUT that declares `declaredBytes` and streams them, 1 MB at a time, without holding them. A polite
 * client stops sending once the server answered; an attacker keeps sending until the server closes.
 */
function put(url: string, declaredBytes: number, { polite = true } = {}): Promise<PutOutcome> {
  return new Promise((resolve) => {
    const outcome: PutOutcome = { body: '', sent: 0 };
    const req = request(url, {
      method: 'PUT',
      headers: { 'content-length': declaredBytes, 'content-type': 'application/octet-stream' },
    });
    let answered = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      req.destroy();
      resolve(outcome);
    };
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (outcome.body += text));
      res.on('end', () => {
        answered = true;
        if (polite || outcome.sent >= declaredBytes) finish();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      outcome.error = error.code ?? error.message;
      finish();
    });
    req.on('close', finish);
    const pump = () => {
      while (!(polite && answered) && !req.destroyed && outcome.sent < declaredBytes) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, declaredBytes - outcome.sent));
        outcome.sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (outcome.sent >= declaredBytes) req.end();
      else if (polite && answered) finish();
    };
    pump();
  });
}

describe('the embedded service, as a process, under bogus pre-upload PUTs (issue #7 item 1)', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await startServiceProcess();
  }, 60_000);
  afterAll(() => service?.cleanup());

  const preUpload = async (fileName: string) =>
    (await service.call('/chat/User/GetPreUploadUrl', { fileName })).body.Data as {
      FileStoreId: string;
      PreUploadUrl: string;
    };

  it('refuses eight parallel 99 MB uploads with forged URLs that keep sending anyway: its memory grows by less than 50 MB', async () => {
    const { PreUploadUrl } = await preUpload('real.png');
    const forged = PreUploadUrl.replace(/\.[A-Za-z0-9_-]+$/, '.forged-signature');
    // One refusal first, so the code paths are loaded before the baseline is taken.
    expect((await put(forged, MB)).status).toBe(403);
    const before = service.rssBytes();

    const outcomes = await Promise.all(
      Array.from({ length: PARALLEL_BOGUS_UPLOADS }, () => put(forged, BOGUS_BODY_BYTES, { polite: false })),
    );

    const grown = service.rssBytes() - before;
    expect(grown, `RSS grew by ${Math.round(grown / MB)} MB`).toBeLessThan(RSS_GROWTH_LIMIT_BYTES);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe(403);
      expect(JSON.parse(outcome.body)).toMatchObject({
        Success: false,
        Code: 403,
        Message: 'This upload URL is not valid; request a new one with /chat/User/GetPreUploadUrl.',
      });
    }
  }, 90_000);

  it('answers a forged URL before reading its body, so a client that listens stops after a small part of it', async () => {
    const { PreUploadUrl } = await preUpload('real.png');
    const outcome = await put(PreUploadUrl.replace(/\.[A-Za-z0-9_-]+$/, '.forged-signature'), BOGUS_BODY_BYTES);
    expect(outcome.status).toBe(403);
    // Socket buffers take some megabytes before the answer can arrive; a service that read first would take it all.
    expect(outcome.sent).toBeLessThan(BOGUS_BODY_BYTES / 2);
  }, 60_000);

  it('still stores a valid upload, and refuses a valid one that declares more than 100 MB before reading it', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ffa65a2d0000000049454e44ae426082',
      'hex',
    );
    const { FileStoreId, PreUploadUrl } = await preUpload('dot.png');
    const stored = await fetch(PreUploadUrl, { method: 'PUT', body: png });
    expect(await stored.json()).toMatchObject({
      Success: true,
      Data: { FileStoreId, Size: png.length, ContentType: 'image/png' },
    });

    const big = await preUpload('big.mp4');
    const tooBig = await put(big.PreUploadUrl, 101 * MB);
    expect(tooBig.sent).toBeLessThan(50 * MB);
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body)).toMatchObject({
      Code: 413,
      Message: 'The file is larger than the 100 MB this service accepts.',
    });
  }, 60_000);
});
