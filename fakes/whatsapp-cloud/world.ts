/**
 * Everything the fake Cloud API remembers: the users (their inbound wamids and when they last
 * wrote, for the 24-hour window), what each user sees from the business, every Graph call,
 * read marks, stored media and the URLs issued for them, downloads and webhook attempts.
 * Tests read it through FakeWhatsAppCloud; every change is announced for waitFor.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { MessageContent } from './validation.js';

export interface VisibleCloudMessage extends MessageContent {
  /** The wamid the send answered. */
  id: string;
  /** The user (digits). */
  to: string;
  /** ms since epoch, by the fake's clock. */
  at: number;
  /** A media message's file as the user gets it (sent by the id of an upload). */
  file?: { bytes: Buffer; mimeType: string; fileName?: string };
}

export interface LoggedCloudCall {
  method: string;
  /** Path after the version, e.g. `/100000000000001/messages`. */
  path: string;
  /** The JSON body as received (undefined for GET or a body that was not JSON). */
  body?: unknown;
  status: number;
  /** Meta's error.code when the call failed. */
  errorCode?: number;
  /** Whether a valid bearer token came with it. */
  authorized: boolean;
  at: number;
}

export interface ReadMark {
  messageId: string;
  typing: boolean;
  at: number;
}

export interface MediaDownload {
  mediaId: string;
  authorized: boolean;
  /** Bytes served (0 when refused). */
  bytes: number;
}

export interface StoredMedia {
  id: string;
  bytes: Buffer;
  mimeType: string;
  sha256: string;
  /** What GET /{media-id} announces (the real size unless a test made it lie). */
  fileSize: number;
  /** The media host no longer has the bytes: every url issued for it answers 404. */
  fileGone?: boolean;
  /** The business uploaded it (POST /{phone-number-id}/media): a message may name it. */
  uploaded?: boolean;
  /** The file part's name at upload. */
  fileName?: string;
}

export interface IssuedMediaUrl {
  mediaId: string;
  expiresAt: number;
}

export interface WebhookAttempt {
  /** What was delivered: user messages (their wamids, joined by commas for a batch), a status (`<wamid>/<status>`), another field (its name). */
  kind: 'message' | 'status' | 'other' | 'raw';
  id: string;
  /** The gateway's HTTP status, or 'error' when the request failed (refused, reset, timed out). */
  status: number | 'error';
  at: number;
}

interface User {
  lastInboundAt?: number;
  inbound: Set<string>;
}

/** A user's message as Meta posted it: what a later edit of it starts from. */
export interface InboundRecord {
  from: string;
  /** Its fields after from/id/timestamp (`{type: 'text', text: {body}}`…). */
  content: Record<string, unknown>;
  at: number;
}

export class World extends EventEmitter {
  private readonly users = new Map<string, User>();
  private readonly visible = new Map<string, VisibleCloudMessage[]>();
  /** Users' messages by wamid. */
  private readonly inboundById = new Map<string, InboundRecord>();
  readonly calls: LoggedCloudCall[] = [];
  readonly readMarks: ReadMark[] = [];
  readonly media = new Map<string, StoredMedia>();
  readonly issuedUrls = new Map<string, IssuedMediaUrl>();
  readonly downloads: MediaDownload[] = [];
  readonly webhookAttempts: WebhookAttempt[] = [];
  subscribed = false;
  private sequence = 0;

  constructor(readonly now: () => number) {
    super();
  }

  changed(): void {
    this.emit('change');
  }

  /** Meta's message ids are opaque base64 behind `wamid.`; these are unique per fake. */
  newWamid(): string {
    this.sequence += 1;
    return `wamid.${Buffer.from(`fake-cloud-${this.sequence}-${randomBytes(6).toString('hex')}`).toString('base64')}`;
  }

  /** Media ids are numeric strings, as Meta's are. */
  newMediaId(): string {
    this.sequence += 1;
    return String(900_000_000_000_000 + this.sequence);
  }

  private user(id: string): User {
    let user = this.users.get(id);
    if (!user) {
      user = { inbound: new Set() };
      this.users.set(id, user);
    }
    return user;
  }

  /** A user wrote: the wamid becomes one the read call may name, and the 24-hour window opens again. */
  recordInbound(from: string, wamid: string, at: number, content: Record<string, unknown> = {}): void {
    const user = this.user(from);
    user.inbound.add(wamid);
    user.lastInboundAt = Math.max(user.lastInboundAt ?? at, at);
    this.inboundById.set(wamid, { from, content, at });
    this.changed();
  }

  /** A user's message by its wamid, as Meta posted it. */
  inboundMessage(wamid: string): InboundRecord | undefined {
    return this.inboundById.get(wamid);
  }

  /** The user edited their message: later edits start from this content. */
  reviseInbound(wamid: string, content: Record<string, unknown>): void {
    const record = this.inboundById.get(wamid);
    if (record) record.content = content;
  }

  /** Whether the business sent a message with this wamid. */
  isSent(wamid: string): boolean {
    for (const list of this.visible.values()) if (list.some((message) => message.id === wamid)) return true;
    return false;
  }

  lastInboundAt(user: string): number | undefined {
    return this.users.get(user)?.lastInboundAt;
  }

  isInbound(wamid: string): boolean {
    for (const user of this.users.values()) if (user.inbound.has(wamid)) return true;
    return false;
  }

  show(message: VisibleCloudMessage): void {
    const list = this.visible.get(message.to) ?? [];
    list.push(message);
    this.visible.set(message.to, list);
    this.changed();
  }

  visibleMessages(user: string): VisibleCloudMessage[] {
    return [...(this.visible.get(user) ?? [])];
  }

  log(call: LoggedCloudCall): void {
    this.calls.push(call);
    this.changed();
  }

  mark(mark: ReadMark): void {
    this.readMarks.push(mark);
    this.changed();
  }

  download(entry: MediaDownload): void {
    this.downloads.push(entry);
    this.changed();
  }

  attempt(entry: WebhookAttempt): void {
    this.webhookAttempts.push(entry);
    this.changed();
  }
}
