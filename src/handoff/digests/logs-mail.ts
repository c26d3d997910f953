/**
 * The chat logs mail: every conversation of a chatbot's day, each with who the user is and that
 * day's messages in order (the user, the chatbot, operators by name, their notes marked, the
 * handoff's moments, a note of each file). Plain text, HTML (the `html` template escapes all a
 * user wrote), and the same logs as a text attachment. Built one conversation at a time, so the
 * day's conversations never need to be in memory together; within a size cap, beyond which
 * conversations are counted as left out and the mail says so and where to read them.
 */
import { html, type Html } from '../../format/index.js';
import { formatBytes, type TranscriptEntry } from '../../gateway/index.js';
import { formatConversationId } from '../conversation-id.js';
import { timeOfDay } from './day-window.js';
import type { DayConversation, DayWindow, DigestMail } from './types.js';
import { counted, DEFAULT_MAX_MAIL_BYTES, encodedBytes, MAIL_FRAME_BYTES, personLabel, shortName } from './words.js';

export interface LogsMailOptions {
  /** The chatbot's name, as the mail names it. */
  chatbot: string;
  /** The bot's id (config `bots[].id`): the command that shows what was left out names it. */
  bot: string;
  window: DayWindow;
  /** The platform in words ("WhatsApp") for its adapter name. */
  platformName(platform: string): string;
  /** The most the mail may weigh, encoded (default 10 MB). */
  maxBytes?: number;
  /** The inbox's address, when it is on: where the conversations left out can be read too. */
  inboxUrl?: string;
}

export class LogsMailBuilder {
  private readonly maxBytes: number;
  private readonly texts: string[] = [];
  private readonly htmls: Html[] = [];
  private readonly clock: (at: number) => string;
  private used = MAIL_FRAME_BYTES;
  private total = 0;
  private omitted = 0;

  constructor(private readonly options: LogsMailOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_MAIL_BYTES;
    this.clock = timeOfDay(options.window.zone);
  }

  /** One conversation of the day (one without entries that day is not one of its conversations). */
  add(conversation: DayConversation): void {
    if (conversation.entries.length === 0) return;
    this.total += 1;
    const text = this.textSection(conversation);
    const markup = this.htmlSection(conversation);
    // The text goes twice, in the body and as the attachment.
    const cost = 2 * encodedBytes(text) + encodedBytes(markup.markup);
    // One that does not fit is left out; a smaller one after it may still fit: as many as the cap allows.
    if (this.used + cost > this.maxBytes) {
      this.omitted += 1;
      return;
    }
    this.used += cost;
    this.texts.push(text);
    this.htmls.push(markup);
  }

  /** The mail, or null when the day had no conversation. */
  finish(): DigestMail | null {
    if (this.total === 0) return null;
    const { chatbot, window } = this.options;
    const subject = `Chat logs of ${chatbot} for ${window.day}: ${counted(this.total, 'conversation', 'conversations')}`;
    const intro =
      `${counted(this.total, 'conversation', 'conversations')} with ${chatbot} on ${window.day}, ` +
      `midnight to midnight in ${window.zone} (the times below are in ${window.zone}).`;
    const omitted = this.omittedNote();
    const logs = [intro, ...(omitted ? [omitted] : []), '', this.texts.join('\n\n')].join('\n');
    const text = [logs, '', `The same logs are attached: ${this.filename()}.`].join('\n');
    const page = html`<!doctype html><html><body style="font-family:sans-serif">
<p>${intro}</p>
${omitted ? html`<p><strong>${omitted}</strong></p>` : null}
${this.htmls}
<p>The same logs are attached: ${this.filename()}.</p>
</body></html>`;
    return {
      subject,
      text,
      html: page.markup,
      attachments: [{ filename: this.filename(), contentType: 'text/plain; charset=utf-8', content: logs }],
      omitted: this.omitted,
    };
  }

  private filename(): string {
    return `chat-logs-${this.options.window.day}.txt`;
  }

  private omittedNote(): string | undefined {
    if (this.omitted === 0) return undefined;
    const { bot, window, inboxUrl } = this.options;
    return (
      `${counted(this.omitted, 'conversation is', 'conversations are')} left out of this mail to keep it within ` +
      `${formatBytes(this.maxBytes)}. Read them all with: chatbridge digest preview --bot ${bot} --day ${window.day} ` +
      `--kind logs, or in the inbox${inboxUrl ? ` (${inboxUrl})` : ''}.`
    );
  }

  private heading(conversation: DayConversation): string {
    const platform = this.options.platformName(conversation.conversation.platform);
    return `${personLabel(conversation)} on ${platform}`;
  }

  private textSection(conversation: DayConversation): string {
    const id = formatConversationId(conversation.conversation);
    const lines = [`=== ${this.heading(conversation)} ===`, `Conversation: ${id}`];
    for (const entry of conversation.entries) {
      const [first = '', ...rest] = entry.text.split('\n');
      lines.push(`[${this.time(entry)}] ${this.speaker(entry, conversation)}: ${first}`);
      // Continuation lines indented: a user's line cannot pass for an entry of its own.
      for (const line of rest) lines.push(`    ${line}`);
      for (const file of entry.attachments ?? []) lines.push(`    [file: ${file}]`);
    }
    return lines.join('\n');
  }

  private htmlSection(conversation: DayConversation): Html {
    const id = formatConversationId(conversation.conversation);
    const entries = conversation.entries.map((entry) => {
      const files = (entry.attachments ?? []).map((file) => html`<br><em>[file: ${file}]</em>`);
      const text = html`<span style="white-space:pre-wrap">${entry.text}</span>`;
      const said = html`<small>${this.time(entry)}</small> <strong>${this.speaker(entry, conversation)}:</strong> ${text}${files}`;
      // A note on a yellow ground, the gateway's and the handoff's moments in grey: they are not the conversation's words.
      if (entry.note) return html`<p style="background:#fff6d5">${said}</p>`;
      if (entry.role === 'system') return html`<p style="color:#555;font-style:italic">${said}</p>`;
      return html`<p>${said}</p>`;
    });
    return html`<h3>${this.heading(conversation)}</h3>
<p><small>Conversation ${id}</small></p>
<div>${entries}</div>
<hr>
`;
  }

  private time(entry: TranscriptEntry): string {
    return this.clock(entry.at);
  }

  /** Who said it: the user by name, the chatbot, an operator by name (a note marked), the handoff's moments. */
  private speaker(entry: TranscriptEntry, conversation: DayConversation): string {
    switch (entry.role) {
      case 'user':
        return shortName({ conversation: conversation.conversation, user: entry.user ?? conversation.user });
      case 'bot':
        return this.options.chatbot;
      case 'operator': {
        const who = `Operator ${entry.operator ?? '(unnamed)'}${entry.via ? ` via ${entry.via}` : ''}`;
        return entry.note ? `${who} [note, not sent to the user]` : who;
      }
      case 'system':
        return entry.event ? `Handoff (${entry.event}${entry.operator ? `, ${entry.operator}` : ''})` : 'Gateway';
    }
  }
}
