import { randomBytes } from 'node:crypto';

export interface ServiceKeys {
  secretKey: string;
  sessionKey: string;
}

/** Fresh random keys, for a service started without SERVICE_SECRET_KEY / SERVICE_SESSION_KEY. */
export function generateServiceKeys(): ServiceKeys {
  return {
    secretKey: `sk-${randomBytes(24).toString('base64url')}`,
    sessionKey: `ssk-${randomBytes(24).toString('base64url')}`,
  };
}
