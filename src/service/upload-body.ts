import type { Request } from 'express';
import { badRequest, formatSize, ServiceError } from './envelope.js';

/**
 * Reading the raw body of a pre-upload PUT. Nothing here runs before the URL's
 * signature was checked: an unauthenticated caller never makes the service
 * allocate or read anything (buffering every body first let a handful of bogus
 * large PUTs take a process to gigabytes).
 */

/**
 * How long a refused upload's connection stays open after the refusal, throwing
 * away whatever body bytes still arrive (they are never held). Closing a socket
 * that has unread bytes sends a TCP reset, which can destroy the refusal before
 * the client reads it; this gives the client time to read it and stop sending,
 * as nginx's lingering_close does, while a client that ignores it costs at
 * most this long of bandwidth and no memory.
 */
const REFUSED_UPLOAD_LINGER_MS = 2_000;

const tooLarge = (limit: number) =>
  new ServiceError(413, `The file is larger than the ${formatSize(limit)} this service accepts.`);

/** The Content-Length the caller declared, or undefined for a chunked body; a malformed one is a 400. */
export function declaredLength(req: Request): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined) return undefined;
  if (!/^\d+$/.test(header)) throw badRequest('Content-Length must be a whole number of bytes.');
  return Number(header);
}

/**
 * Refuses, before a byte is read, a body that is declared too large, that is
 * missing, or that is encoded: the bytes are stored as sent (like an S3 PUT),
 * and inflating them would let a small body grow past the limit.
 */
export function checkDeclaredBody(req: Request, limit: number): void {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new ServiceError(415, `PUT the file's bytes as they are, without Content-Encoding (got "${encoding}").`);
  }
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limit) throw tooLarge(limit);
  if (declared === 0 || (declared === undefined && req.headers['transfer-encoding'] === undefined)) {
    throw badRequest('The upload is empty: PUT the file bytes as the request body.');
  }
}

/**
 * The whole body, read chunk by chunk with the limit enforced as it arrives.
 * With a Content-Length (what every HTTP client sends for a file it holds) the
 * bytes land in one buffer of that size, allocated once; a chunked body is
 * collected up to the limit. Past the limit, reading stops and the 413 goes
 * out; the caller closes the connection instead of draining the rest.
 */
export function readBody(req: Request, limit: number): Promise<Buffer> {
  const declared = declaredLength(req);
  return new Promise<Buffer>((resolve, reject) => {
    const into = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: ServiceError) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      // Node's parser never delivers more than a declared Content-Length, so `into` cannot overflow.
      if (received + chunk.length > limit) return stop(tooLarge(limit));
      if (into) chunk.copy(into, received);
      else chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => {
      if (received === 0) return reject(badRequest('The upload is empty: PUT the file bytes as the request body.'));
      resolve(into ? into.subarray(0, received) : Buffer.concat(chunks, received));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', () =>
      stop(badRequest('The upload was aborted before all of its bytes arrived; PUT it again.')),
    );
    req.once('error', () => stop(badRequest('The upload failed while its bytes arrived; PUT it again.')));
  });
}

/**
 * For a PUT refused before its body was read: the body is discarded as it
 * arrives, and the connection is closed REFUSED_UPLOAD_LINGER_MS later unless
 * the body ended by then (a small one, drained: the connection stays usable).
 */
export function discardThenClose(req: Request): void {
  const close = setTimeout(() => req.socket.destroy(), REFUSED_UPLOAD_LINGER_MS);
  close.unref();
  const keep = () => clearTimeout(close);
  req.once('end', keep);
  req.socket.once('close', keep);
  req.removeAllListeners('data');
  req.resume();
}
