import { createHmac } from 'node:crypto';
import { ServiceError } from './envelope.js';
import { sameKey } from './auth.js';

/**
 * The pre-upload URL's token: `<fileId>.<expiresAtMs>.<hmac>`, signed with the
 * secret key, so the PUT needs no header (like an S3 presigned URL) and a
 * forged or stale URL is refused without a state lookup.
 */
export function signUploadToken(fileId: number, expiresAtMs: number, secretKey: string): string {
  const payload = `${fileId}.${expiresAtMs}`;
  return `${payload}.${mac(payload, secretKey)}`;
}

export function verifyUploadToken(token: string, secretKey: string, now = Date.now()): number {
  const match = /^(\d+)\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match || !sameKey(match[3]!, mac(`${match[1]}.${match[2]}`, secretKey))) {
    throw new ServiceError(403, 'This upload URL is not valid; request a new one with /chat/User/GetPreUploadUrl.');
  }
  if (Number(match[2]) < now) {
    throw new ServiceError(403, 'This upload URL has expired; request a new one with /chat/User/GetPreUploadUrl.');
  }
  return Number(match[1]);
}

function mac(payload: string, secretKey: string): string {
  return createHmac('sha256', secretKey).update(`upload:${payload}`).digest('base64url');
}
