/**
 * What the fake library (in the gateway's process) and the fake WhatsApp (in the test's
 * process) say to each other over one WebSocket per client: calls answered by results,
 * and events pushed by the world. Messages travel as plain data; the library side turns
 * them into objects with the real methods.
 */
import type { WaMessageId, WaMessageMedia } from '../../adapters/whatsapp/library.js';

export interface MessageData {
  id: WaMessageId;
  body: string;
  type: string;
  from: string;
  to: string;
  author?: string;
  fromMe: boolean;
  hasMedia: boolean;
  hasQuotedMsg: boolean;
  isStatus: boolean;
  broadcast: boolean;
  timestamp: number;
  duration: string;
  mentionedIds: string[];
  rawData: Record<string, unknown>;
  /** A message revoked for everyone: the id of the message it was. */
  protocolMessageKey?: WaMessageId;
}

/** What the world pushes to a client, as the real client emits it. */
export type WorldEvent =
  'qr' | 'code' | 'message' | 'message_edit' | 'message_revoke_everyone' | 'disconnected' | 'linked' | 'change_state';

export interface Hello {
  /** The token in the stored session zip, when the client restored one. */
  token?: string;
  /** Link by pairing code on this phone instead of a QR. */
  pairPhone?: string;
}

export type HelloAnswer =
  { linked: { number: string; pushname: string; token: string } } | { refused: string } | { waiting: true };

export type ClientToWorld = { kind: 'call'; id: number; method: string; params: unknown[] };

export type WorldToClient =
  | { kind: 'result'; id: number; ok: true; value: unknown }
  | { kind: 'result'; id: number; ok: false; error: string }
  | { kind: 'event'; event: WorldEvent; args: unknown[] };

export type MediaData = WaMessageMedia;

/** Puppeteer's words when the page or the browser connection is gone (CdpSession.js). */
export const SESSION_CLOSED =
  'Protocol error (Runtime.callFunctionOn): Session closed. Most likely the page has been closed.';

/** A 100 MB document travels as base64 in one frame (133 MB): more than ws's default 100 MiB. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;
