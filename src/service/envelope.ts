import type { Response } from 'express';

export const API_VERSION = '1.0.0';

export interface Envelope<T = unknown> {
  Data?: T;
  Version: string;
  Success: boolean;
  Code: number;
  Message: string;
}

/**
 * A failure the caller can act on. The HTTP status equals `code`, and `message`
 * is sent verbatim as the envelope's Message, so it must say what to fix.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Extra response headers (Allow, Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const badRequest = (message: string): ServiceError => new ServiceError(400, message);
export const notFound = (message: string): ServiceError => new ServiceError(404, message);

/** Success envelope; `Data` is left out when undefined, as the hosted service does (Chatbot/Remove). */
export function sendOk(res: Response, data?: unknown): void {
  const body: Envelope =
    data === undefined
      ? { Version: API_VERSION, Success: true, Code: 200, Message: '' }
      : { Data: data, Version: API_VERSION, Success: true, Code: 200, Message: '' };
  res.status(200).json(body);
}

export function errorEnvelope(code: number, message: string): Envelope<null> {
  return { Data: null, Version: API_VERSION, Success: false, Code: code, Message: message };
}

export function sendError(res: Response, error: ServiceError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.code).json(errorEnvelope(error.code, error.message));
}

/** "20 MB", "512 KB", "80 bytes": sizes in messages people read. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}
