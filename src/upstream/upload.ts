import { z } from 'zod';
import type { CallOptions, UploadInput } from './api.js';
import { caseInsensitiveObject, stringLike } from './case-insensitive.js';
import type { UpstreamContext } from './context.js';
import { dataOrThrow, parseData } from './envelope.js';
import { UpstreamError, toUpstreamError } from './errors.js';

const preUploadSchema = caseInsensitiveObject({
  // A string in the docs' example, an integer in ClientAsk's fileIds: accept both.
  FileStoreId: stringLike.pipe(
    z.string().trim().regex(/^\d+$/, 'FileStoreId must be a whole number to be usable in fileIds'),
  ),
  PreUploadUrl: z.url({ protocol: /^https?$/, error: 'PreUploadUrl must be an absolute http(s) URL' }),
});

/**
 * GetPreUploadUrl → PUT the bytes to the pre-signed URL → confirm (only when a
 * confirm path is configured; the docs name the step but its path was never
 * published). Each step has its own timeout. Never retried: a second
 * GetPreUploadUrl would reserve a second file.
 */
export async function uploadFile(
  ctx: UpstreamContext,
  file: UploadInput,
  options?: CallOptions,
): Promise<{ fileId: number }> {
  const reserved = await ctx.http.call(
    {
      operation: 'GetPreUploadUrl',
      method: 'POST',
      target: ctx.paths.getPreUploadUrl,
      credential: 'secret',
      json: { fileName: file.fileName },
      idempotent: false,
    },
    options,
  );
  const { FileStoreId, PreUploadUrl } = parseData('GetPreUploadUrl', reserved.status, preUploadSchema, reserved.data);

  await putBytes(ctx, PreUploadUrl, file, options);

  if (ctx.uploadConfirmPath !== null) {
    await ctx.http.call(
      {
        operation: 'UploadConfirm',
        method: 'POST',
        target: ctx.uploadConfirmPath,
        credential: 'secret',
        json: { FileStoreId },
        idempotent: false,
      },
      options,
    );
  }
  const fileId = Number(FileStoreId);
  if (!Number.isSafeInteger(fileId)) {
    throw new UpstreamError({
      kind: 'invalid-response',
      operation: 'GetPreUploadUrl',
      message: `FileStoreId ${FileStoreId} is too large to send as an integer in fileIds`,
    });
  }
  return { fileId };
}

/** A plain PUT, like an S3 pre-signed URL expects: no credentials, any 2xx is success. */
async function putBytes(ctx: UpstreamContext, url: string, file: UploadInput, options?: CallOptions): Promise<void> {
  const deadline = ctx.http.deadline(options);
  try {
    const response = await ctx.http.open(
      {
        operation: 'UploadPut',
        method: 'PUT',
        target: url,
        credential: 'none',
        raw: { bytes: file.bytes, contentType: file.contentType ?? 'application/octet-stream' },
        accept: '*/*',
        idempotent: false,
      },
      deadline,
    );
    const text = await response.body.text();
    if (response.statusCode < 200 || response.statusCode >= 300) dataOrThrow('UploadPut', response.statusCode, text);
  } catch (error) {
    throw toUpstreamError(error, 'UploadPut', deadline.cause, deadline.timeoutMs);
  } finally {
    deadline.dispose();
  }
}
