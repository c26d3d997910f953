/**
 * A handoff's card, as the operators' thread shows it: who, where, to which chatbot, why, the
 * last messages before it, the inbox link, and who holds the conversation now. Standard
 * Markdown, which each door renders in its own markup; the words are the operators', not a user's.
 */
import type { PlatformUser, ThreadAction, ThreadCard } from '../../contract.js';
import { escapeMarkdown } from '../../format/index.js';
import type { TranscriptEntry } from '../../gateway/index.js';
import { userLabel } from '../mail/index.js';

/** The messages before the handoff a card quotes, at most. */
export const CARD_EXCERPT_ENTRIES = 6;
/** The characters of one quoted message, at most: the card is a summary, the thread has the rest. */
const CARD_EXCERPT_CHARS = 300;

export type CardState =
  | { kind: 'waiting' }
  | { kind: 'claimed'; by: string; at: number }
  /** Handed back: by an operator (`by`), or as the transcript says (`said`: the admin API, the e-mail's link); neither: the pause ran out. */
  | { kind: 'ended'; at: number; by?: string; said?: string };

export interface CardFacts {
  user?: PlatformUser;
  /** The user's platform, in words ("WhatsApp"). */
  platform: string;
  chatbot: string;
  reason: string;
  since: number;
  /** The transcript up to the handoff, oldest first: the card quotes the last user, bot and operator words. */
  before: readonly TranscriptEntry[];
  inboxUrl?: string;
  previousUrl?: string;
  state: CardState;
  /** Whether the thread relays both ways (false: alerts mode, answered from the inbox). */
  relays: boolean;
}

const CLAIM: ThreadAction = { kind: 'claim', label: 'Claim' };
const HAND_BACK: ThreadAction = { kind: 'hand-back', label: 'Hand back' };

export function composeCard(facts: CardFacts): ThreadCard {
  const user = userLabel(facts.user);
  const lines = [
    `**${escapeMarkdown(user)}** on ${facts.platform}, writing to **${escapeMarkdown(facts.chatbot)}**`,
    `Why: ${escapeMarkdown(facts.reason)}`,
    `Since: ${clock(facts.since)}`,
  ];
  const quoted = facts.before.filter((entry) => entry.role !== 'system' && !entry.note).slice(-CARD_EXCERPT_ENTRIES);
  if (quoted.length > 0) {
    lines.push('', 'Last messages:');
    for (const entry of quoted)
      lines.push(`> **${escapeMarkdown(speaker(entry))}:** ${escapeMarkdown(excerpt(entry))}`);
  }
  lines.push('');
  if (facts.inboxUrl) lines.push(`[Open in the inbox](${facts.inboxUrl})`);
  if (facts.previousUrl) lines.push(`[The thread of the handoff before](${facts.previousUrl})`);
  lines.push('', stateLine(facts, user));
  return {
    title: `${user} · ${facts.platform}`,
    markdown: lines.join('\n'),
    actions: facts.state.kind === 'ended' || !facts.relays ? [] : [CLAIM, HAND_BACK],
  };
}

function stateLine(facts: CardFacts, user: string): string {
  const { state } = facts;
  const answer = facts.relays
    ? `Reply in this thread to answer ${escapeMarkdown(user)} on ${facts.platform}; start with \`note:\` for a note only operators see.`
    : 'Answer from the inbox.';
  switch (state.kind) {
    case 'waiting':
      return `**Waiting for a person.** ${answer}`;
    case 'claimed':
      return `**Claimed by ${escapeMarkdown(state.by)}** at ${clock(state.at)}. ${answer}`;
    case 'ended': {
      const what = state.by
        ? `**Handed back to the assistant by ${escapeMarkdown(state.by)}** at ${clock(state.at)}.`
        : state.said
          ? `**${escapeMarkdown(state.said.replace(/\.$/, ''))}** at ${clock(state.at)}.`
          : `**The pause ran out** at ${clock(state.at)}: the assistant answers again.`;
      return facts.relays ? `${what} Write in this thread to take the conversation over again.` : what;
    }
  }
}

function speaker(entry: TranscriptEntry): string {
  if (entry.role === 'user') return entry.user?.name ?? 'User';
  if (entry.role === 'operator') return entry.operator ?? 'Operator';
  return 'Assistant';
}

function excerpt(entry: TranscriptEntry): string {
  const files = entry.attachments?.length ? ` [${entry.attachments.join(', ')}]` : '';
  const text = entry.text.replace(/\s+/g, ' ').trim();
  const cut = text.length > CARD_EXCERPT_CHARS ? `${text.slice(0, CARD_EXCERPT_CHARS - 1)}…` : text;
  return `${cut}${files}`.trim() || '(no text)';
}

/** "27 Nov 2026, 14:05 UTC": operators may be anywhere, so the zone is said. */
function clock(ms: number): string {
  return `${new Date(ms).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  })} UTC`;
}
