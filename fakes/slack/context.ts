/** What every fake Web API method can see, and how it answers `{ok:false, error}`. */
import type { World } from './world.js';

/** Who the bot is, as auth.test and the event builders describe it. */
export interface SlackIdentity {
  teamId: string;
  teamName: string;
  apiAppId: string;
  botUserId: string;
  botId: string;
}

/** How the fake answers the native streaming methods. */
export type StreamingSupport =
  /** chat.startStream / appendStream / stopStream work. */
  | 'supported'
  /** The methods exist but this workspace may not use them: `{ok:false, error:'not_allowed'}`. */
  | 'not_allowed'
  /** An old workspace/API: `{ok:false, error:'unknown_method'}`. */
  | 'unknown_method';

export interface MethodContext {
  world: World;
  identity: SlackIdentity;
  streaming: StreamingSupport;
  /** Scopes auth.test reports in `x-oauth-scopes`. */
  scopes: string[];
  /** The fake's Socket Mode URL for a new connection. */
  socketUrl: () => string;
  /** Where an upload v2's bytes go (files.getUploadURLExternal's `upload_url`). */
  uploadUrl: (fileId: string) => string;
  /** Where a file the bot shared is downloaded (its `url_private`). */
  fileUrl: (fileId: string, name: string) => string;
  /** Largest file files.getUploadURLExternal accepts (`file_upload_size_restricted` above). */
  maxUploadBytes: number;
}

export type MethodParams = Record<string, unknown>;

export interface MethodOutcome {
  /** Fields besides `ok: true`. */
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export type MethodHandler = (ctx: MethodContext, params: MethodParams) => MethodOutcome;

/** Which token a method wants: most want the bot token; apps.connections.open the app-level token. */
export type TokenKind = 'bot' | 'app';

/** A Web API method of the fake: what answers it, and which token it takes. */
export interface MethodEntry {
  handler: MethodHandler;
  token: TokenKind;
}

/** An answer `{ok:false, error}` (HTTP 200, as Slack answers method errors). */
export class SlackApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/** Slack truncates past 40,000 characters; the fake refuses so that an adapter that does not split is caught. */
export const MAX_TEXT_LENGTH = 40_000;
export const MAX_BLOCKS = 50;
/** Per streaming call (startStream, appendStream, stopStream). */
export const MAX_STREAM_MARKDOWN = 12_000;
export const MAX_SUGGESTED_PROMPTS = 4;
/** Slack's largest upload: 1 GB. */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/** `missing_scope` as Slack answers it: the scope needed, and those the token has. */
export function requireScope(ctx: MethodContext, ...anyOf: string[]): void {
  if (anyOf.some((scope) => ctx.scopes.includes(scope))) return;
  throw new SlackApiError('missing_scope', { needed: anyOf.join(','), provided: ctx.scopes.join(',') });
}
