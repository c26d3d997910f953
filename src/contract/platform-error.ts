/**
 * A platform's refusal of a call, in the kinds the core reacts to, naming the call for the log; and
 * the short, redacted description of what the call sent.
 */
/**
 * What the platform said when it refused a call; the core reacts to these kinds only.
 * 'unreachable' is not a refusal: the call got no answer (connection refused or reset,
 * timeout) or the platform failed on its side (5xx). It is retried with backoff.
 * 'not-editable': the message exists but can no longer be edited (its edit window passed,
 * Telegram's "message can't be edited"): the core continues the answer in a new message.
 * 'window-closed': the platform takes no free-form message to this user any more, whatever the
 * text, until the user writes again (WhatsApp Cloud's 24-hour customer-service window, code
 * 131047: only an approved template may go). Final for that message: the core never sends it
 * again, ends the turn, logs a warning with `platformCode` and counts it (`windowClosed`);
 * an operator's message refused so is answered 422 with the adapter's words, which say a
 * template is needed.
 * 'unauthorized': the platform refuses the bot's credentials, whatever the call (a token revoked
 * or rotated: Telegram 401, Slack `invalid_auth` / `token_revoked` / `account_inactive`, Meta's
 * code 190). Not this call's fault, and nothing the core can fix: the adapter reports itself not
 * connected with the variable to fix (the kit's CredentialWatch), and the core waits the call out
 * as it does an unreachable platform, up to the outage horizon, so that the answer goes out once
 * the operator puts a working token in place.
 * `method` and `sent` name the failed call for the log (as grammY's GrammyError names its method
 * and payload): the error is logged as `err`, and its own fields are part of the line.
 */
export class PlatformError extends Error {
  /** The platform's own code for the refusal (Meta's `error.code`), for logs and metrics. */
  readonly platformCode?: string;
  /** The call that failed, in the platform's words: `sendMessage`, `chat.update`, `POST /{phone}/messages`. */
  readonly method?: string;
  /** What the call sent, short and redacted (`describeSent`): never a token, never a whole text. */
  readonly sent?: string;

  constructor(
    message: string,
    readonly kind:
      | 'rate-limited'
      | 'too-long'
      | 'bad-format'
      | 'not-modified'
      | 'not-found'
      | 'not-editable'
      | 'window-closed'
      | 'unsupported'
      | 'unreachable'
      | 'unauthorized'
      | 'other',
    /** For rate-limited: how long the platform asks us to wait. */
    readonly retryAfterMs?: number,
    options?: PlatformErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlatformError';
    if (options?.platformCode !== undefined) this.platformCode = options.platformCode;
    if (options?.method !== undefined) this.method = options.method;
    if (options?.sent !== undefined) this.sent = options.sent;
  }
}

export interface PlatformErrorOptions {
  cause?: unknown;
  platformCode?: string;
  /** The call that failed (PlatformError.method). */
  method?: string;
  /** What it sent, from `describeSent` (PlatformError.sent). */
  sent?: string;
}

/** How much of a text a log line shows: enough to recognize the message, not enough to hold what a user wrote. */
export const SENT_TEXT_PREVIEW_CHARS = 20;

/**
 * A platform call's payload in a few words for a log line: where it went, which message, how
 * long its text was and how it began, how many files and buttons. Never a token (an adapter
 * passes none) and never a whole text: the first SENT_TEXT_PREVIEW_CHARS characters on one line,
 * then its length. `describeSent({ to: '123', text: 'Here are three homes that match' })` is
 * `to 123, text "Here are three homes…" (31 chars)`.
 */
export function describeSent(sent: {
  to?: string | number | undefined;
  message?: string | number | undefined;
  text?: string | undefined;
  files?: number | undefined;
  buttons?: number | undefined;
}): string {
  const parts: string[] = [];
  if (sent.to !== undefined) parts.push(`to ${sent.to}`);
  if (sent.message !== undefined) parts.push(`message ${sent.message}`);
  if (sent.text !== undefined) {
    const characters = [...sent.text];
    const start = characters.slice(0, SENT_TEXT_PREVIEW_CHARS).join('').replace(/\s+/g, ' ');
    const more = characters.length > SENT_TEXT_PREVIEW_CHARS ? '…' : '';
    parts.push(`text "${start}${more}" (${characters.length} chars)`);
  }
  if (sent.files) parts.push(`${sent.files} file${sent.files === 1 ? '' : 's'}`);
  if (sent.buttons) parts.push(`${sent.buttons} button${sent.buttons === 1 ? '' : 's'}`);
  return parts.join(', ');
}
