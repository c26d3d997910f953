import type { Request } from 'express';
import { z } from 'zod';
import type { Endpoint, ServiceContext } from '../context.js';
import { badRequest, sendOk, ServiceError } from '../envelope.js';
import type { UploadedFile } from '../repos/files.js';
import { signUploadToken, verifyUploadToken } from '../upload-token.js';
import { parseBody } from '../validation/bind.js';

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
      path: '/chat/User/GetPreUploadUrl', methods: ['POST'], credential: 'secret',
      async handle(req, res) {
        const { fileName } = parseBody(preUploadSchema, req.body);
        const file = await ctx.files.reserve(fileName);
        const token = signUploadToken(file.fileId, Date.now() + ctx.limits.uploadUrlTtlMs, ctx.options.secretKey);
        sendOk(res, { FileStoreId: String(file.fileId), PreUploadUrl: `${baseUrl(ctx, req)}/chat/upload/${token}` });
      },
    },
    {
      // Raw bytes, like an S3 presigned PUT: the signed token is the credential.
      path: '/chat/upload/:token', methods: ['PUT'],
      async handle(req, res) {
        const fileId = verifyUploadToken(String(req.params.token), ctx.options.secretKey);
        const body: unknown = req.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The upload is empty: PUT the file bytes as the request body.');
        const file = await ctx.files.get(fileId);
        const stored = await ctx.files.storeBytes(file, body);
        sendOk(res, describe(stored));
      },
    },
    {
      // Optional and idempotent: a file is usable as soon as its PUT completed.
      path: '/chat/User/ConfirmUpload', methods: ['POST'], credential: 'secret',
      async handle(req, res) {
        const { FileStoreId } = parseBody(confirmSchema, req.body);
        const file = await ctx.files.get(Number(FileStoreId));
        if (file.uploadedAt === undefined || file.size === undefined) {
          throw new ServiceError(409, `File ${file.fileId} has no bytes yet: PUT them to its PreUploadUrl first, then confirm.`);
        }
        sendOk(res, describe(await ctx.files.markConfirmed(file as UploadedFile)));
      },
    },
  ];
}
