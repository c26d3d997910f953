/** A day, a chatbot's listings and conversations of that day, as the digests' tests use them. */
import type { PlatformUser } from '../../../../src/contract.js';
import type { TranscriptEntry } from '../../../../src/gateway/index.js';
import { dayWindow } from '../../../../src/handoff/digests/day-window.js';
import type { DayConversation, ListingFact } from '../../../../src/handoff/digests/types.js';

export const window = dayWindow('2026-11-26', 'America/Chicago');

/** `hh:mm` on that day in Chicago, as ms since the epoch. */
export const at = (hhmm: string): number => {
  const [hours = 0, minutes = 0] = hhmm.split(':').map(Number);
  return window.start + (hours * 60 + minutes) * 60_000;
};

export const listings: ListingFact[] = [
  { mls: '1234567', address: '12 Oak Street', city: 'Austin', price: '$450,000' },
  { mls: '7654321', address: '5 Lake View Drive', city: 'Round Rock', price: '$2,100/month' },
  { mls: '5550001', address: '901 Pine Avenue', city: 'Austin', price: '$615,000' },
];

export const platformName = (platform: string): string =>
  ({ telegram: 'Telegram', slack: 'Slack', whatsapp: 'WhatsApp', 'whatsapp-cloud': 'WhatsApp' })[platform] ?? platform;

export const ana: PlatformUser = { id: '42', name: 'Ana Lima', handle: 'ana' };

export function user(text: string, time = '09:00', extra: Partial<TranscriptEntry> = {}): TranscriptEntry {
  return { at: at(time), role: 'user', text, ...extra };
}

export function bot(text: string, time = '09:01'): TranscriptEntry {
  return { at: at(time), role: 'bot', text };
}

export function telegram(entries: TranscriptEntry[], who: PlatformUser = ana, id = '42'): DayConversation {
  return { conversation: { bot: 'main', platform: 'telegram', id }, user: who, entries };
}
