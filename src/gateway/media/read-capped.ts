import { AttachmentTooLargeError } from './errors.js';

/**
 * Reads a byte stream into memory, refusing to hold more than `maxBytes`: it
 * throws AttachmentTooLargeError before reading when the declared size is already
 * over the cap, and as soon as the bytes read pass it (leaving the loop closes the
 * stream, so the rest is never downloaded). For adapters' `fetch` implementations.
 */
export async function readCapped(
  stream: AsyncIterable<Uint8Array>,
  maxBytes: number,
  declaredSize?: number,
): Promise<Uint8Array> {
  if (declaredSize !== undefined && declaredSize > maxBytes) throw new AttachmentTooLargeError(maxBytes, declaredSize);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > maxBytes) throw new AttachmentTooLargeError(maxBytes, total);
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
