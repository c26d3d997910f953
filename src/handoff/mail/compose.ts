/**
 * The handoff e-mail: who, where, why, the conversation so far, and the link
 * that hands it back. Plain text and HTML; the HTML is written with the `html`
 * template, which escapes everything a user wrote (a user could otherwise put
 * markup, or a phishing link, into the operator's mailbox).
 */
import type { PlatformUser } from '../../contract.js';
import { html, type Html } from '../../format/index.js';
import type { TranscriptEntry } from '../../gateway/index.js';

export interface HandoffMailInput {
  botId: string;
  chatbotName: string;
  platform: string;
  /** `<bot>:<platform>:<id>`, what the admin API and the CLI take. */
  conversationId: string;
  user: PlatformUser | undefined;
  reason: string;
  since: number;
  pausedUntil: number;
  transcript: readonly TranscriptEntry[];
  resumeUrl: string;
  linkExpiresAt: number;
  /** The signed link that opens this conversation in the inbox (only when the inbox is on: ADMIN_TOKEN set). */
  inboxUrl?: string;
  inboxLinkExpiresAt?: number;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const ROLE_LABELS: Record<TranscriptEntry['role'], string> = {
  user: 'User',
  bot: 'Bot',
  operator: 'Operator',
  system: 'Gateway',
};

/** "Ana Lima (@ana)", or the handle or the id when the platform gives no name. */
export function userLabel(user: PlatformUser | undefined): string {
  if (!user) return 'An unknown user';
  const handle = user.handle ? `@${user.handle.replace(/^@/, '')}` : undefined;
  const name = user.name ?? handle ?? user.id;
  return handle && handle !== name ? `${name} (${handle})` : name;
}

function describeUser(user: PlatformUser | undefined): string {
  return user ? `${userLabel(user)} [id ${user.id}]` : userLabel(user);
}

function speaker(entry: TranscriptEntry): string {
  const label = ROLE_LABELS[entry.role];
  if (entry.role === 'user' && entry.user?.name) return `${label} (${entry.user.name})`;
  if (entry.role !== 'operator') return label;
  const who = [entry.operator, entry.note ? 'a note, not sent to the user' : undefined].filter(Boolean);
  return who.length > 0 ? `${label} (${who.join(', ')})` : label;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function composeHandoffMail(input: HandoffMailInput): ComposedMail {
  const who = describeUser(input.user);
  const subject = `Handoff: ${userLabel(input.user)} on ${input.platform} wants a person (${input.chatbotName})`;
  const facts: [string, string][] = [
    ['Chatbot', input.chatbotName],
    ['Bot', input.botId],
    ['Platform', input.platform],
    ['Conversation', input.conversationId],
    ['User', who],
    ['Why', input.reason],
    ['Since', iso(input.since)],
    ['The bot stays silent until', iso(input.pausedUntil)],
  ];
  const howToAnswer =
    `Answer through the gateway: chatbridge handoff say ${input.conversationId} <text>  ` +
    `(or POST /admin/conversations/${encodeURIComponent(input.conversationId)}/messages)`;

  const text = [
    `${who} asked to talk to a person.`,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    ...inboxLinkText(input),
    `Hand the conversation back to the bot: ${input.resumeUrl}`,
    `(link valid until ${iso(input.linkExpiresAt)})`,
    howToAnswer,
    '',
    '--- Transcript ---',
    ...(input.transcript.length === 0 ? ['(empty)'] : input.transcript.flatMap(textEntry)),
  ].join('\n');

  const page = html`<!doctype html><html><body style="font-family:sans-serif">
<p><strong>${who}</strong> asked to talk to a person.</p>
<table>
${facts.map(([label, value]) => html`<tr><th align="left">${label}</th><td>${value}</td></tr>`)}
</table>
${inboxLinkHtml(input)}
<p><a href="${input.resumeUrl}">Hand the conversation back to the bot</a> (link valid until ${iso(input.linkExpiresAt)})</p>
<p>${howToAnswer}</p>
<h3>Transcript</h3>
${input.transcript.length === 0 ? html`<p>(empty)</p>` : html`<div>${input.transcript.map(htmlEntry)}</div>`}
</body></html>`;
  return { subject, text, html: page.markup };
}

export interface FollowUpMailInput {
  chatbotName: string;
  platform: string;
  conversationId: string;
  user: PlatformUser | undefined;
  /** When the conversation was handed over. */
  since: number;
  /** What was said since the last e-mail, oldest first. */
  entries: readonly TranscriptEntry[];
  resumeUrl: string;
  linkExpiresAt: number;
  /** The signed link into the inbox (only when the inbox is on: ADMIN_TOKEN set). */
  inboxUrl?: string;
  inboxLinkExpiresAt?: number;
}

/** "The user wrote again": the new messages of a paused conversation, for someone who may not be watching. */
export function composeFollowUpMail(input: FollowUpMailInput): ComposedMail {
  const who = describeUser(input.user);
  const subject = `Handoff: ${userLabel(input.user)} on ${input.platform} wrote again (${input.chatbotName})`;
  const intro = `${who} wrote again in ${input.conversationId}, waiting for a person since ${iso(input.since)}.`;
  const howToAnswer = `Answer through the gateway: chatbridge handoff say ${input.conversationId} <text>`;
  const text = [
    intro,
    '',
    '--- New messages ---',
    ...input.entries.flatMap(textEntry),
    '',
    ...inboxLinkText(input),
    howToAnswer,
    `Hand the conversation back to the bot: ${input.resumeUrl}`,
    `(link valid until ${iso(input.linkExpiresAt)})`,
  ].join('\n');
  const page = html`<!doctype html><html><body style="font-family:sans-serif">
<p>${intro}</p>
<h3>New messages</h3>
<div>${input.entries.map(htmlEntry)}</div>
${inboxLinkHtml(input)}
<p>${howToAnswer}</p>
<p><a href="${input.resumeUrl}">Hand the conversation back to the bot</a> (link valid until ${iso(input.linkExpiresAt)})</p>
</body></html>`;
  return { subject, text, html: page.markup };
}

type InboxLinkInput = { inboxUrl?: string; inboxLinkExpiresAt?: number; linkExpiresAt: number };

/** The inbox link of either e-mail, in its text part (none when the inbox is off). */
function inboxLinkText(input: InboxLinkInput): string[] {
  if (!input.inboxUrl) return [];
  return [
    `Open this conversation in the inbox: ${input.inboxUrl}`,
    `(link valid until ${iso(input.inboxLinkExpiresAt ?? input.linkExpiresAt)})`,
  ];
}

/** The same link in the HTML part. */
function inboxLinkHtml(input: InboxLinkInput): Html | null {
  if (!input.inboxUrl) return null;
  const until = iso(input.inboxLinkExpiresAt ?? input.linkExpiresAt);
  return html`<p><a href="${input.inboxUrl}">Open this conversation in the inbox</a> (link valid until ${until})</p>`;
}

function textEntry(entry: TranscriptEntry): string[] {
  const lines = [`[${iso(entry.at)}] ${speaker(entry)}: ${entry.text}`];
  for (const attachment of entry.attachments ?? []) lines.push(`    [attachment: ${attachment}]`);
  return lines;
}

function htmlEntry(entry: TranscriptEntry): Html {
  const attachments = (entry.attachments ?? []).map((attachment) => html`<br><em>[attachment: ${attachment}]</em>`);
  const text = html`<span style="white-space:pre-wrap">${entry.text}</span>`;
  return html`<p><small>${iso(entry.at)}</small> <strong>${speaker(entry)}:</strong> ${text}${attachments}</p>`;
}
