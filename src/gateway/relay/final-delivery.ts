import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../logger.js';
import { PlatformError, type Button, type Capabilities, type ConversationRef, type Outbound, type SentMessage } from '../types.js';
import { BUTTONS_MESSAGE_TEXT, LAST_RESORT_ATTEMPTS, LAST_RESORT_BUDGET_MS, SUPERSEDED_MESSAGE_TEXT } from './policy.js';
import { renderFinal } from './rendering.js';
import type { PacingPolicy } from './types.js';

/** A 429 without retry_after: wait this long, Telegram's usual answer for one chat. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

export interface DeliveryContext {
  outbound: Outbound;
  conversation: ConversationRef;
  capabilities: Capabilities;
  pacing: PacingPolicy;
  logger: Logger;
  signal?: AbortSignal | undefined;
  stats: { rateLimited: number };
}

/** A message on screen holding part of the answer. */
export interface ScreenSlot {
  /** The platform's handle, when it gave one (a native stream gives none). */
  message?: SentMessage;
  /** What it shows; null when it must be replaced whatever the text (a native stream still open). */
  text: string | null;
  /**
   * Replaces its text (an edit, or closing a native stream); absent when it cannot change.
   * `buttons` are passed only when `buttonsOnReplace` says the replacement can carry them.
   */
  replace?: (text: string, buttons?: Button[], progress?: boolean) => Promise<void>;
  /** `replace` can attach buttons (an edited message on a platform with buttons; never a native stream). */
  buttonsOnReplace?: boolean;
  /** The buttons it shows, as far as we know. */
  buttons?: Button[];
}

export function isPlatformError(error: unknown, kind: PlatformError['kind']): error is PlatformError {
  return error instanceof PlatformError && error.kind === kind;
}

/** A slot for a message we sent (with `buttons` when it carries them), editable when the platform can edit. */
export function messageSlot(context: DeliveryContext, message: SentMessage, text: string, buttons?: Button[]): ScreenSlot {
  const { capabilities, conversation, outbound } = context;
  const slot: ScreenSlot = { message, text, ...(buttons ? { buttons } : {}) };
  const edit = capabilities.canEdit ? outbound.edit?.bind(outbound) : undefined;
  if (!edit) return slot;
  slot.replace = (next, withButtons, progress) => {
    if (withButtons) return edit(conversation, message, next, { buttons: withButtons });
    return progress ? edit(conversation, message, next, { progress }) : edit(conversation, message, next);
  };
  slot.buttonsOnReplace = capabilities.buttons;
  return slot;
}

/**
 * Runs one final platform call, waiting retry_after on each 429 while the
 * policy's tries and time budget allow, then rethrows: the caller falls back
 * to a new message rather than lose the text.
 */
export async function withFinalRetries<T>(context: DeliveryContext, call: () => Promise<T>, options: { lastResort?: boolean } = {}): Promise<T> {
  const attempts = options.lastResort ? Math.max(context.pacing.finalAttempts, LAST_RESORT_ATTEMPTS) : context.pacing.finalAttempts;
  const budgetMs = options.lastResort ? Math.max(context.pacing.finalRetryBudgetMs, LAST_RESORT_BUDGET_MS) : context.pacing.finalRetryBudgetMs;
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isPlatformError(error, 'rate-limited')) throw error;
      context.stats.rateLimited++;
      const waitMs = error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
      const outOfTries = attempt >= attempts;
      if (outOfTries || waitedMs + waitMs > budgetMs || context.signal?.aborted) throw error;
      waitedMs += waitMs;
      await sleep(waitMs, undefined, context.signal ? { signal: context.signal } : {}).catch(() => {
        throw error;
      });
    }
  }
}

/**
 * When the platform counts a chunk as too long (its count differs from ours,
 * e.g. after entity parsing), the answer is split again this much shorter.
 */
export const TOO_LONG_SHRINK_FACTOR = 0.8;

/**
 * Makes the final answer the last thing on screen: rendered and split within
 * the platform's limit, the first chunks replacing the messages already shown,
 * the rest sent as new messages. A format the platform refuses is sent again as
 * plain text; a chunk it finds too long, split again shorter. Returns the
 * messages holding the answer, in reading order.
 */
export async function deliverFinal(context: DeliveryContext, screen: ScreenSlot[], markdown: string, buttons?: Button[]): Promise<SentMessage[]> {
  const { capabilities } = context;
  let format = capabilities.format;
  let maxLength = capabilities.maxMessageLength;
  let onScreen = screen;
  const placed: ScreenSlot[] = [];
  for (let reshaped = 0; ; reshaped++) {
    try {
      await place(context, onScreen, renderFinal(markdown, { ...capabilities, maxMessageLength: maxLength }, format), buttons, placed);
      return placed.flatMap((slot) => (slot.message ? [slot.message] : []));
    } catch (error) {
      const badFormat = isPlatformError(error, 'bad-format') && format !== 'plain';
      const tooLong = isPlatformError(error, 'too-long') && reshaped < MAX_RESHAPES;
      if (!badFormat && !tooLong) throw error;
      context.logger.warn({ err: error }, badFormat ? 'the platform refused the formatted answer; sending it as plain text' : 'the platform found a chunk too long; splitting shorter');
      if (badFormat) format = 'plain';
      else maxLength = Math.max(1, Math.floor(maxLength * TOO_LONG_SHRINK_FACTOR));
      // Whatever was placed already is on screen now and is replaced like the rest.
      onScreen = [...placed, ...onScreen.slice(placed.length)];
      placed.length = 0;
    }
  }
}

/** Plain text once, shorter twice: past that the platform is refusing for another reason. */
const MAX_RESHAPES = 3;

async function place(context: DeliveryContext, screen: ScreenSlot[], chunks: string[], buttons: Button[] | undefined, placed: ScreenSlot[]): Promise<void> {
  const withButtons = context.capabilities.buttons && buttons && buttons.length > 0 ? buttons : undefined;
  let replacing = true;
  for (const [index, chunk] of chunks.entries()) {
    const chunkButtons = index === chunks.length - 1 ? withButtons : undefined;
    const slot = replacing ? screen[index] : undefined;
    if (slot && (await replaceInPlace(context, slot, chunk, chunkButtons))) {
      placed.push(slot);
      continue;
    }
    // From the first message that cannot be replaced on, the answer continues in new
    // messages, so it still reads in order (the stale one keeps its partial text).
    replacing = false;
    const message = await withFinalRetries(context, () =>
      context.outbound.send(context.conversation, { text: chunk, ...(chunkButtons ? { buttons: chunkButtons } : {}) }),
    { lastResort: true });
    placed.push(messageSlot(context, message, chunk, chunkButtons));
  }
  if (replacing) await retireSurplus(context, screen.slice(chunks.length));
  // The last message could not take the buttons (a native stream, or a platform that
  // refused them on an edit): they come in a message of their own.
  if (withButtons && !sameButtons(placed.at(-1)?.buttons, withButtons)) {
    await withFinalRetries(context, () => context.outbound.send(context.conversation, { text: BUTTONS_MESSAGE_TEXT, buttons: withButtons }));
  }
}

/**
 * True when the slot now shows `text` (with `buttons` when it can carry them);
 * false when it could not be changed (the caller sends a new message).
 */
async function replaceInPlace(context: DeliveryContext, slot: ScreenSlot, text: string, buttons: Button[] | undefined): Promise<boolean> {
  const attach = buttons && slot.buttonsOnReplace ? buttons : undefined;
  // An edit without buttons also takes away buttons the message had, so those count as a change too.
  const unchanged = slot.text === text && (!slot.buttonsOnReplace || sameButtons(slot.buttons, attach));
  if (unchanged) return true;
  if (attach) {
    const outcome = await tryReplace(context, slot, text, attach);
    if (outcome !== 'refused') return outcome === 'done';
    // Maybe the buttons were the problem: the text alone, and the buttons come separately.
    context.logger.info({ message: slot.message?.id }, 'the platform refused buttons on an edit; sending them in a message of their own');
  }
  return (await tryReplace(context, slot, text, undefined)) === 'done';
}

/**
 * One final replacement. 'refused' only when buttons were attached and the
 * platform refused the edit for a reason that is neither the text nor the
 * message being gone (e.g. 'unsupported'), so the edit is worth trying without them.
 */
async function tryReplace(context: DeliveryContext, slot: ScreenSlot, text: string, buttons: Button[] | undefined): Promise<'done' | 'refused' | 'failed'> {
  const replace = slot.replace;
  if (!replace) return 'failed';
  try {
    await withFinalRetries(context, () => replace(text, buttons));
  } catch (error) {
    // These concern the text, not the message: a new message would be refused too.
    if (isPlatformError(error, 'bad-format') || isPlatformError(error, 'too-long')) throw error;
    if (!isPlatformError(error, 'not-modified')) {
      const aboutButtons = buttons && (isPlatformError(error, 'unsupported') || isPlatformError(error, 'other'));
      if (aboutButtons) return 'refused';
      context.logger.warn({ err: error, message: slot.message?.id }, 'final update failed; sending the text as a new message');
      return 'failed';
    }
  }
  slot.text = text;
  if (buttons) slot.buttons = buttons;
  else delete slot.buttons;
  return 'done';
}

function sameButtons(a: Button[] | undefined, b: Button[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((button, i) => button.label === b[i]?.label && button.value === b[i]?.value);
}

/** Messages an intermediate render needed but the final does not (the final came out shorter). */
async function retireSurplus(context: DeliveryContext, surplus: ScreenSlot[]): Promise<void> {
  for (const slot of surplus) {
    try {
      if (slot.replace && slot.text !== SUPERSEDED_MESSAGE_TEXT) await slot.replace(SUPERSEDED_MESSAGE_TEXT);
    } catch (error) {
      context.logger.warn({ err: error, message: slot.message?.id }, 'could not empty a message the final answer no longer needs');
    }
  }
}
