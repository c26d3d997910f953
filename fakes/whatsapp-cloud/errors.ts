/**
 * Meta's Graph API error answers (/work/shared/notes/whatsapp-cloud.md, "Errors"):
 * `{error: {message, type, code, error_subcode?, error_data: {messaging_product, details}, fbtrace_id}}`,
 * HTTP 400 for most, 401 for a bad token, 429 for throughput. The fake throws a
 * CloudApiError from any check; the server turns it into that JSON.
 */
import { randomBytes } from 'node:crypto';

/** The codes the fake answers, named as Meta's error-code reference names them. */
export const META_CODES = {
  /** Graph: invalid parameter (a missing field, text too long, an unknown key, a wamid the read call cannot find). */
  invalidParameter: 100,
  /** Graph: access token missing or invalid. */
  accessToken: 190,
  /** Graph: an edge or path the API does not know. */
  unknownPath: 2500,
  /** WhatsApp: "Rate limit hit" (the number's throughput). */
  throughput: 130429,
  /** WhatsApp: "Something went wrong" (Meta's generic server-side failure). */
  somethingWentWrong: 131000,
  /** WhatsApp: "Parameter value is not valid" (interactive limits). */
  parameterValueNotValid: 131009,
  /** WhatsApp: "Media upload error" (a file over its type's size, a media id a message cannot show). */
  mediaUpload: 131053,
  /** WhatsApp: "Re-engagement message" (more than 24 h since the user's last message). */
  reEngagement: 131047,
  /** WhatsApp: "(Business Account, Consumer Account) pair rate limit hit". */
  pairRateLimit: 131056,
} as const;

/** Meta's title for each code it documents; a scripted code outside this list gets a generic one. */
const TITLES: Record<number, string> = {
  100: 'Invalid parameter',
  190: 'Invalid OAuth access token',
  2500: 'Unknown path components',
  130429: 'Rate limit hit',
  131000: 'Something went wrong',
  131009: 'Parameter value is not valid',
  131026: 'Message Undeliverable',
  131047: 'Re-engagement message',
  131053: 'Media upload error',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  131057: 'Account in maintenance mode',
};

/** What each code's `error_data.details` says when a check does not give its own. */
const DETAILS: Record<number, string> = {
  130429: 'Cloud API message throughput has been reached.',
  131000: 'Message failed to send due to an unknown error.',
  131047:
    'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  131056:
    'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
  131057: 'Business Account is in maintenance mode',
};

/**
 * The HTTP status Meta answers with: 401 for a token, 429 for throughput (130429), 500 for its own
 * failure, 400 for everything else, 131056 included (the notes: "HTTP 400 (or 429 for some rate limits)").
 */
export function defaultHttpStatus(code: number): number {
  if (code === META_CODES.accessToken) return 401;
  if (code === META_CODES.throughput) return 429;
  if (code === META_CODES.somethingWentWrong) return 500;
  return 400;
}

export function titleOf(code: number): string {
  return TITLES[code] ?? 'Message failed to send';
}

export function detailsOf(code: number): string | undefined {
  return DETAILS[code];
}

export class CloudApiError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: number,
    readonly details?: string,
    readonly options: { subcode?: number; httpStatus?: number; message?: string; type?: string } = {},
  ) {
    super(options.message ?? `(#${code}) ${titleOf(code)}`);
    this.httpStatus = options.httpStatus ?? defaultHttpStatus(code);
  }

  /** The JSON body Meta answers with. */
  body(): { error: Record<string, unknown> } {
    const details = this.details ?? DETAILS[this.code];
    return {
      error: {
        message: this.message,
        type: this.options.type ?? 'OAuthException',
        code: this.code,
        ...(this.options.subcode !== undefined ? { error_subcode: this.options.subcode } : {}),
        ...(details !== undefined ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        fbtrace_id: newTraceId(),
      },
    };
  }
}

/** Meta's fbtrace_id: an opaque id support asks for (shaped like theirs: 27 base64url characters). */
export function newTraceId(): string {
  return `A${randomBytes(20).toString('base64url').slice(0, 26)}`;
}

/** An invalid-parameter error whose details name the parameter, as Meta's messages do (`text['body']`). */
export function invalidParameter(details: string): CloudApiError {
  return new CloudApiError(META_CODES.invalidParameter, details);
}

/** An interactive limit broken: 131009 with what broke it in the details. */
export function notValid(details: string): CloudApiError {
  return new CloudApiError(META_CODES.parameterValueNotValid, details);
}

/** Graph's answer for an id that is neither the number, the WABA nor a media id. */
export function unknownObject(method: string, id: string): CloudApiError {
  return new CloudApiError(META_CODES.invalidParameter, undefined, {
    subcode: 33,
    message:
      `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, ` +
      'cannot be loaded due to missing permissions, or does not support this operation.',
    type: 'GraphMethodException',
  });
}
