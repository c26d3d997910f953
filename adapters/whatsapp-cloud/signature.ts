/**
 * Meta's webhook signature: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the body
 * with the app secret. Computed over the raw bytes as received: Meta escapes non-ASCII text
 * (`\u00e9`) in what it signs, so JSON parsed and written again would not verify (the notes,
 * "Webhook"). Compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-hub-signature-256';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** Why the signature does not verify, or undefined when it does. */
export function signatureProblem(raw: Buffer, header: string | undefined, appSecret: string): string | undefined {
  if (!header) return `no ${SIGNATURE_HEADER} header`;
  const given = SIGNATURE.exec(header.trim());
  if (!given) return `${SIGNATURE_HEADER} is not "sha256=<64 hex digits>"`;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  // Both 32 bytes: the comparison takes the same time whatever differs.
  if (!timingSafeEqual(Buffer.from(given[1]!, 'hex'), expected))
    return 'the signature does not match the body (a wrong WHATSAPP_CLOUD_APP_SECRET, or a body changed on the way)';
  return undefined;
}
