import { z } from 'zod';
import { caseInsensitiveObject } from './case-insensitive.js';
import { UpstreamError } from './errors.js';
import type { UpstreamOperation } from './paths.js';

const envelopeSchema = caseInsensitiveObject({
  Data: z.unknown().optional(),
  Version: z.string().nullish(),
  Success: z.boolean().nullish(),
  Code: z.number().nullish(),
  Message: z.string().nullish(),
});

export interface Envelope {
  data: unknown;
  success: boolean;
  code: number | null;
  message: string | null;
  version: string | null;
}

/**
 * Reads `{Data, Version, Success, Code, Message}` in any casing. Returns null when
 * the text is not JSON or not an object. A missing `Success` is derived from
 * `Code` (2xx), since some hosts leave it out; with neither, it is a failure.
 */
export function readEnvelope(text: string): Envelope | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) return null;
  const { Data, Version, Success, Code, Message } = parsed.data;
  const code = Code ?? null;
  const success = Success ?? (code !== null && code >= 200 && code < 300);
  return { data: Data, success, code, message: Message ? Message : null, version: Version ?? null };
}

function describeStatus(status: number): string {
  return `HTTP ${status}`;
}

/** The text of a body shown in an error: short, on one line. */
function excerpt(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

/**
 * The `Data` of a response, or the UpstreamError it stands for: non-2xx → 'http',
 * `Success: false` → 'envelope', anything but an envelope → 'invalid-response'.
 */
export function dataOrThrow(operation: UpstreamOperation, status: number, text: string): unknown {
  const envelope = readEnvelope(text);
  if (status < 200 || status >= 300) {
    const message =
      envelope?.message ??
      `${operation} failed with ${describeStatus(status)}${text.trim() ? `: ${excerpt(text)}` : ''}`;
    throw new UpstreamError({ kind: 'http', operation, status, code: envelope?.code ?? null, message });
  }
  if (envelope === null) {
    const body = text.trim() ? `: ${excerpt(text)}` : ' (empty body)';
    throw new UpstreamError({
      kind: 'invalid-response',
      operation,
      status,
      message: `${operation} answered with something other than the documented JSON envelope${body}`,
    });
  }
  if (!envelope.success) {
    const message =
      envelope.message ?? `${operation} failed (Success false, Code ${envelope.code ?? 'missing'}) without a Message`;
    throw new UpstreamError({ kind: 'envelope', operation, status, code: envelope.code, message });
  }
  return envelope.data;
}

/** Validates `Data` against the operation's schema; a mismatch is 'invalid-response'. */
export function parseData<Schema extends z.ZodType>(
  operation: UpstreamOperation,
  status: number,
  schema: Schema,
  data: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new UpstreamError({
    kind: 'invalid-response',
    operation,
    status,
    message: `${operation} returned Data of an unexpected shape: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`,
    cause: parsed.error,
  });
}
