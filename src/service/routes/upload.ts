import type { Request } from 'express';
import { z } from 'zod';
import type { Endpoint, ServiceContext } from '../context.js';
import { sendOk, ServiceError } from '../envelope.js';
import type { UploadedFile } from '../repos/files.js';
import { svcKeys } from '../state-keys.js';
import { checkDeclaredBody, discardThenClose, readBody } from '../upload-body.js';
import { signUploadToken, verifyUploadToken } from '../upload-token.js';
import { parseBody } from '../validation/bind.js';

/**
 * How long one PUT may hold its URL's claim. It outlives the longest request
 * Node's server lets run (requestTimeout, 5 min by default), so a slow upload
 * never loses its claim; a claim left by a crashed process frees itself.
 */
const UPLOAD_CLAIM_TTL_MS = 10 * 60 * 1000;

const preUploadSchema = z.object({ fileName: z.string().min(1).max(255) });
// The hosted service returns FileStoreId as a string but ClientAsk takes it as an integer: accept both.
const confirmSchema = z.object({ FileStoreId: z.union([z.string().regex(/^\d+$/), z.number().int().min(1)]) });

function baseUrl(ctx: ServiceContext, req: Request): string {
  return (ctx.options.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(/\/+$/, '');
}

function describe(file: UploadedFile) {
  return { FileStoreId: String(file.fileId), FileName: file.fileName, Size: file.size, ContentType: file.mime ?? '' };
}

export function uploadEndpoints(ctx: ServiceContext): Endpoint[] {
  return [
    {
      path: '/chat/User/GetPreUploadUrl',
      methods: ['POST'],
      credential: 'secret',
      async handle(req, res) {
        const { fileName } = parseBody(preUploadSchema, req.body);
        const file = await ctx.files.reserve(fileName);
        const token = signUploadToken(file.fileId, Date.now() + ctx.limits.uploadUrlTtlMs, ctx.options.secretKey);
        sendOk(res, { FileStoreId: String(file.fileId), PreUploadUrl: `${baseUrl(ctx, req)}/chat/upload/${token}` });
      },
    },
    {
      // Raw bytes, like an S3 presigned PUT: the signed token is the credential.
      path: '/chat/upload/:token',
      methods: ['PUT'],
      async handle(req, res) {
        let bodyRead = false;
        try {
          // Cheap checks first, before a byte of the body is read or a buffer allocated.
          const fileId = verifyUploadToken(String(req.params.token), ctx.options.secretKey);
          checkDeclaredBody(req, ctx.limits.uploadBytes);
          const claim = await ctx.state.acquireLock(svcKeys.uploadClaim(fileId), UPLOAD_CLAIM_TTL_MS);
          if (claim === null) {
            throw new ServiceError(
              409,
              'This upload URL is already receiving a PUT; wait for it to finish, or request a new URL with /chat/User/GetPreUploadUrl.',
            );
          }
          try {
            const file = await ctx.files.get(fileId);
            const bytes = await readBody(req, ctx.limits.uploadBytes);
            bodyRead = true;
            sendOk(res, describe(await ctx.files.storeBytes(file, bytes)));
          } finally {
            await ctx.state.releaseLock(svcKeys.uploadClaim(fileId), claim);
          }
        } catch (error) {
          // A refused upload's body is never held (up to 100 MB the caller may still be sending).
          if (!bodyRead) discardThenClose(req);
          throw error;
        }
      },
    },
    {
      // Optional and idempotent: a file is usable as soon as its PUT completed.
      path: '/chat/User/ConfirmUpload',
      methods: ['POST'],
      credential: 'secret',
      async handle(req, res) {
        const { FileStoreId } = parseBody(confirmSchema, req.body);
        const file = await ctx.files.get(Number(FileStoreId));
        if (file.uploadedAt === undefined || file.size === undefined) {
          throw new ServiceError(
            409,
            `File ${file.fileId} has no bytes yet: PUT them to its PreUploadUrl first, then confirm.`,
          );
        }
        sendOk(res, describe(await ctx.files.markConfirmed(file as UploadedFile)));
      },
    },
  ];
}
