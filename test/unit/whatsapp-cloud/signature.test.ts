/**
 * The signature is checked over the bytes Meta sent: Meta escapes non-ASCII text in what it
 * signs, so the same JSON written again by us (unescaped) must not verify.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureProblem } from '../../../adapters/whatsapp-cloud/signature.js';

const SECRET = 'app-secret-0123456789';
const sign = (bytes: Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`;

/** As Meta writes it: every non-ASCII character as \uXXXX (emoji as surrogate pairs). */
function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

describe('the webhook signature', () => {
  const body = {
    entry: [
      { changes: [{ value: { messages: [{ text: { body: 'Olá, a casa em São Paulo tem 2 quartos? 🏡 @ana' } }] } }] },
    ],
  };
  const raw = Buffer.from(metaJson(body));

  it('verifies over the raw bytes Meta sent, non-ASCII escaped', () => {
    expect(raw.toString()).toContain('\\u00e1');
    expect(signatureProblem(raw, sign(raw), SECRET)).toBeUndefined();
    expect(signatureProblem(raw, sign(raw).toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toBeUndefined();
  });

  it('does not verify the same JSON written again, nor with another secret, nor a changed body', () => {
    const rewritten = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
    expect(rewritten.equals(raw)).toBe(false);
    expect(signatureProblem(rewritten, sign(raw), SECRET)).toMatch(/does not match/);
    expect(signatureProblem(raw, sign(raw, 'another-app-secret'), SECRET)).toMatch(/does not match/);
    expect(signatureProblem(Buffer.concat([raw, Buffer.from(' ')]), sign(raw), SECRET)).toMatch(/does not match/);
  });

  it('says what is wrong with a missing or malformed header', () => {
    expect(signatureProblem(raw, undefined, SECRET)).toMatch(/no x-hub-signature-256/);
    expect(signatureProblem(raw, 'sha1=abc', SECRET)).toMatch(/not "sha256=<64 hex digits>"/);
    expect(signatureProblem(raw, `sha256=${'0'.repeat(63)}`, SECRET)).toMatch(/not "sha256=<64 hex digits>"/);
  });
});
