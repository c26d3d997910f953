/** How the inbox pages say who, where and when. */
import type { PlatformUser } from '../../../contract.js';
import { userLabel } from '../../mail/index.js';
import { html, type Html } from '../../../format/index.js';

/** The platform's name as a word ("telegram" → "Telegram"); the core knows platforms by name only. */
export function platformName(platform: string): string {
  return platform.charAt(0).toUpperCase() + platform.slice(1);
}

/** The user as the platform names them ("Ana Lima (@ana)"), or their id. */
export function userName(user: PlatformUser | undefined): string {
  return user ? userLabel(user) : 'An unknown user';
}

/** "Ana Lima (@ana) on Telegram": the name of a conversation's link and page. */
export function conversationTitle(user: PlatformUser | undefined, platform: string): string {
  return `${userName(user)} on ${platformName(platform)}`;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A wait in words: "under a minute", "12 min", "3 h 5 min", "2 days 4 h". */
export function duration(ms: number): string {
  if (ms < MINUTE_MS) return 'under a minute';
  if (ms < HOUR_MS) return `${Math.floor(ms / MINUTE_MS)} min`;
  if (ms < DAY_MS) {
    const minutes = Math.floor((ms % HOUR_MS) / MINUTE_MS);
    return `${Math.floor(ms / HOUR_MS)} h${minutes ? ` ${minutes} min` : ''}`;
  }
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  return `${days} ${days === 1 ? 'day' : 'days'}${hours ? ` ${hours} h` : ''}`;
}

/** A moment, machine-readable in `datetime` and readable as UTC text. */
export function time(ms: number): Html {
  const date = new Date(ms);
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

/** One line of a longer text, for a list: the first `max` characters, whitespace folded. */
export function excerpt(text: string, max = 140): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The path of a conversation's page (the id URL-encoded: platform ids hold ':' and more) under `root`, the
 * inbox's path as the browser sees it (`/inbox`, or `/support/inbox` behind a proxy that mounts the gateway there).
 */
export function conversationPath(root: string, id: string): string {
  return `${root}/conversations/${encodeURIComponent(id)}`;
}
