/**
 * What went wrong in a whatsapp-web.js call, in the only terms the core reacts to
 * (`PlatformError` kinds). The library drives WhatsApp Web in a browser page: a page,
 * browser or session that is gone (closed, reloading, reconnecting) is the platform being
 * unreachable, so the core keeps the answer and tries again once a client is ready.
 */
import { PlatformError } from '../../src/contract.js';

/** Puppeteer's and WhatsApp Web's words for a page, browser or session that is gone or not there yet. */
const UNREACHABLE = [
  /session closed/i,
  /target closed/i,
  /protocol error/i,
  /execution context was destroyed/i,
  /frame (was|got) detached|detached frame/i,
  /connection closed/i,
  /browser (has )?(disconnected|closed)/i,
  /page (has been )?closed/i,
  /navigating frame/i,
  /requesting main frame too early/i,
  /net::err_/i,
  // The page reloaded and the library's injected helpers are not there yet.
  /WWebJS/,
];

const TOO_LONG = /too long|too large|exceeds? the maximum/i;

export function isUnreachableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // puppeteer's TimeoutError: the page did not answer in time.
  if (error.name === 'TimeoutError') return true;
  return UNREACHABLE.some((pattern) => pattern.test(error.message));
}

/** `sent`: what the call sent (`describeSent`), named in the error with the method for the log. */
export function toPlatformError(error: unknown, method: string, sent?: string): PlatformError {
  const call = { cause: error, method, ...(sent !== undefined ? { sent } : {}) };
  if (error instanceof PlatformError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isUnreachableError(error)) {
    return new PlatformError(
      `WhatsApp ${method}: WhatsApp Web is not reachable (${message}); the gateway tries again once the client is back`,
      'unreachable',
      undefined,
      call,
    );
  }
  if (TOO_LONG.test(message))
    return new PlatformError(
      `WhatsApp ${method} refused the text as too long: ${message}`,
      'too-long',
      undefined,
      call,
    );
  return new PlatformError(`WhatsApp ${method} failed: ${message}`, 'other', undefined, call);
}

/** No ready client in this process: another replica holds the number, it is not linked yet, or it is reconnecting. */
export function notReadyError(bot: string, method: string, reason?: string): PlatformError {
  return new PlatformError(
    `WhatsApp ${method}: bot "${bot}" has no ready WhatsApp Web client in this process ` +
      `(${reason ?? 'not linked, reconnecting, or another process holds the number'}); the gateway tries again`,
    'unreachable',
    undefined,
    { method },
  );
}
