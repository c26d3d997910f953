import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from './media-fixtures.js';
import { startTestService, type TestService } from './harness.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ limits: { imageBytes: 1024, uploadUrlTtlMs: 60_000 } });
});
afterAll(() => service.close());

const preUpload = (fileName = 'photo.png') =>
  service.call<{ FileStoreId: string; PreUploadUrl: string }>('/chat/User/GetPreUploadUrl', { fileName });

describe('GetPreUploadUrl → PUT → ConfirmUpload', () => {
  it('hands out a string FileStoreId and a URL on this service', async () => {
    const reply = await preUpload();
    expect(reply.body.Data!.FileStoreId).toMatch(/^\d+$/);
    expect(reply.body.Data!.PreUploadUrl.startsWith(`${service.url}/chat/upload/`)).toBe(true);
  });

  it('stores the PUT bytes with their sniffed type and size, whatever the name or Content-Type says', async () => {
    const { FileStoreId, PreUploadUrl } = (await preUpload('not-really.txt')).body.Data!;
    const bytes = media.png();
    const put = await fetch(PreUploadUrl, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: bytes });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      Success: true,
      Data: { FileStoreId, FileName: 'not-really.txt', Size: bytes.length, ContentType: 'image/png' },
    });
  });

  it('confirms idempotently, and accepts the id as a string or a number', async () => {
    const fileId = await service.upload(media.jpeg(), 'a.jpg');
    const first = await service.call('/chat/User/ConfirmUpload', { FileStoreId: String(fileId) });
    const second = await service.call('/chat/User/ConfirmUpload', { fileStoreId: fileId });
    expect(first.body).toMatchObject({
      Success: true,
      Data: { FileStoreId: String(fileId), ContentType: 'image/jpeg' },
    });
    expect(second.body.Data).toEqual(first.body.Data);
  });

  it('refuses to confirm a file whose bytes never arrived, or an unknown one', async () => {
    const { FileStoreId } = (await preUpload()).body.Data!;
    const pending = await service.call('/chat/User/ConfirmUpload', { FileStoreId });
    expect(pending.body).toMatchObject({
      Code: 409,
      Message: `File ${FileStoreId} has no bytes yet: PUT them to its PreUploadUrl first, then confirm.`,
    });
    expect((await service.call('/chat/User/ConfirmUpload', { FileStoreId: '99999999' })).status).toBe(404);
    expect((await service.call('/chat/User/ConfirmUpload', { FileStoreId: 'abc' })).status).toBe(400);
  });

  it('refuses a tampered upload URL and an empty PUT', async () => {
    const { PreUploadUrl } = (await preUpload()).body.Data!;
    const tampered = PreUploadUrl.replace(/\/upload\/(\d+)\./, (_m, id: string) => `/upload/${Number(id) + 1}.`);
    const forged = await fetch(tampered, { method: 'PUT', body: media.png() });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({
      Success: false,
      Code: 403,
      Message: 'This upload URL is not valid; request a new one with /chat/User/GetPreUploadUrl.',
    });
    const empty = await fetch(PreUploadUrl, { method: 'PUT' });
    expect(await empty.json()).toMatchObject({
      Code: 400,
      Message: 'The upload is empty: PUT the file bytes as the request body.',
    });
  });

  it('requires fileName', async () => {
    expect((await service.call('/chat/User/GetPreUploadUrl', {})).body).toMatchObject({
      Code: 400,
      Message: 'fileName is required.',
    });
  });
});

describe('upload URL expiry', () => {
  it('refuses a PUT once the URL has expired', async () => {
    const shortLived = await startTestService({ memory: true, limits: { uploadUrlTtlMs: -1 } });
    try {
      const pre = await shortLived.call<{ PreUploadUrl: string }>('/chat/User/GetPreUploadUrl', { fileName: 'x.png' });
      const put = await fetch(pre.body.Data!.PreUploadUrl, { method: 'PUT', body: media.png() });
      expect(put.status).toBe(403);
      expect(((await put.json()) as { Message: string }).Message).toBe(
        'This upload URL has expired; request a new one with /chat/User/GetPreUploadUrl.',
      );
    } finally {
      await shortLived.close();
    }
  });

  it('refuses a PUT larger than uploadBytes with 413', async () => {
    const small = await startTestService({ memory: true, limits: { uploadBytes: 20 } });
    try {
      const pre = await small.call<{ PreUploadUrl: string }>('/chat/User/GetPreUploadUrl', { fileName: 'big.bin' });
      const put = await fetch(pre.body.Data!.PreUploadUrl, { method: 'PUT', body: Buffer.alloc(21) });
      expect(put.status).toBe(413);
      expect(await put.json()).toMatchObject({
        Success: false,
        Code: 413,
        Message: 'The file is larger than the 20 bytes this service accepts.',
      });
    } finally {
      await small.close();
    }
  });
});
