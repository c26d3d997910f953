import type { Logger } from '../../logger.js';
import {
  PlatformError,
  type Button,
  type Capabilities,
  type ConversationRef,
  type Outbound,
  type SentMessage,
} from '../../contract.js';
import { EDIT_WINDOW_USABLE_FRACTION } from './relay-policy.js';
import { userTexts } from '../user-texts.js';
import type { RelayTexts } from './types.js';
import { plainMarkup, type PlacedChunk } from '../../format/index.js';
import { layOutFinal, type LaidOutAnswer } from './rendering.js';
import type { PacingPolicy } from './types.js';
import {
  canEdit,
  isPlatformError,
  isPlatformOutage,
  LAST_RESORT_ATTEMPTS,
  LAST_RESORT_BUDGET_MS,
  retryPlatformCall,
} from '../reply/index.js';

export { DEFAULT_RETRY_AFTER_MS, isPlatformError, isPlatformOutage } from '../reply/index.js';

export interface DeliveryContext {
  outbound: Outbound;
  conversation: ConversationRef;
  capabilities: Capabilities;
  pacing: PacingPolicy;
  logger: Logger;
  signal?: AbortSignal | undefined;
  stats: { rateLimited: number };
  /** How long a final call is retried while the platform is unreachable (GatewayPolicy.platformOutageHorizonMs). */
  outageHorizonMs: number;
  /** The relay's sentences in the chatbot's language (default English). */
  texts?: RelayTexts;
}

/** A message on screen holding part of the answer. */
export interface ScreenSlot {
  message: SentMessage;
  /** What it shows. */
  text: string;
  /**
   * Edits its text; absent when it cannot change (the platform cannot edit, or the message
   * can no longer be edited). Throws PlatformError 'not-editable' without calling the
   * platform once the message's edit window has (nearly) passed. `buttons` are passed only
   * when `buttonsOnReplace` says the edit can carry them.
   */
  replace?: (text: string, buttons?: Button[], progress?: boolean) => Promise<void>;
  /** `replace` can attach buttons (an edited message on a platform with buttons). */
  buttonsOnReplace?: boolean;
  /** When `replace` starts refusing because the edit window is nearly over (ms since epoch); absent: never. */
  editableUntil?: number;
  /** The buttons it shows, as far as we know. */
  buttons?: Button[];
  /**
   * Which part of the answer it shows, when known: its visible text (`LaidOutAnswer.visible`)
   * from `from` to the end of `upTo`, which holds the answer's visible text from its start. A
   * message that cannot take the final text keeps this, and the answer goes on where it ends.
   */
  shows?: { from: number; upTo: string };
}

/**
 * A slot for a message we sent (with `buttons` when it carries them), editable when the
 * platform can edit, until its edit window is nearly over. `sentAt`: when the send was
 * asked for (ms since epoch), earlier than the platform's own time, so the window we
 * count never ends after the platform's.
 */
export function messageSlot(
  context: DeliveryContext,
  message: SentMessage,
  text: string,
  buttons?: Button[],
  sentAt = Date.now(),
): ScreenSlot {
  const { capabilities, conversation, outbound } = context;
  const slot: ScreenSlot = { message, text, ...(buttons ? { buttons } : {}) };
  if (!canEdit(outbound)) return slot;
  const { editWindowMs } = capabilities;
  const editableUntil = editWindowMs === undefined ? undefined : sentAt + editWindowMs * EDIT_WINDOW_USABLE_FRACTION;
  if (editableUntil !== undefined) slot.editableUntil = editableUntil;
  slot.replace = async (next, withButtons, progress) => {
    if (editableUntil !== undefined && Date.now() >= editableUntil) {
      throw new PlatformError(
        `message ${message.id} is past its ${editWindowMs} ms edit window; not editing it any more`,
        'not-editable',
      );
    }
    if (withButtons) return outbound.edit(conversation, message, next, { buttons: withButtons });
    return progress
      ? outbound.edit(conversation, message, next, { progress })
      : outbound.edit(conversation, message, next);
  };
  slot.buttonsOnReplace = capabilities.buttons;
  return slot;
}

/**
 * The message will not change again: its edit window passed, or the platform said it
 * can no longer be edited (or that it is gone). The answer continues in a new message.
 */
export function isNoLongerEditable(error: unknown): boolean {
  return isPlatformError(error, 'not-editable') || isPlatformError(error, 'not-found');
}

/**
 * Runs one final platform call with the one retry mechanism (platform-retry.ts):
 * each 429 waits retry_after while the policy's tries and time budget allow, an
 * unreachable platform is tried again with backoff up to the outage horizon;
 * then the error is rethrown (after a 429 the caller falls back to a new message
 * rather than lose the text).
 */
export async function withFinalRetries<T>(
  context: DeliveryContext,
  call: () => Promise<T>,
  options: { lastResort?: boolean } = {},
): Promise<T> {
  const { pacing } = context;
  const policy = {
    rateLimitAttempts: options.lastResort ? Math.max(pacing.finalAttempts, LAST_RESORT_ATTEMPTS) : pacing.finalAttempts,
    rateLimitBudgetMs: options.lastResort
      ? Math.max(pacing.finalRetryBudgetMs, LAST_RESORT_BUDGET_MS)
      : pacing.finalRetryBudgetMs,
    outageHorizonMs: context.outageHorizonMs,
  };
  return retryPlatformCall(call, {
    policy,
    signal: context.signal,
    onRateLimited: () => {
      context.stats.rateLimited++;
    },
    onUnreachable: (error, attempt) => {
      // The answer is kept (and its message stays queued) until the platform is back or the horizon passes.
      if (attempt === 1)
        context.logger.warn(
          { err: error },
          'the platform is unreachable; keeping the final answer and retrying with backoff',
        );
    },
  });
}

/**
 * When the platform counts a chunk as too long (its count differs from ours,
 * e.g. after entity parsing), the answer is split again this much shorter.
 */
export const TOO_LONG_SHRINK_FACTOR = 0.8;

export interface FinalOptions {
  /**
   * The visible text that messages before `screen` already show and that will not change
   * (messages that can no longer be edited), from the answer's start. The final answer goes
   * on exactly where it ends; when the final answer does not begin with it (the service's
   * final text differs from what was streamed), the whole final answer comes after them.
   */
  after?: string;
}

/**
 * Makes the final answer the last thing on screen: rendered and split within
 * the platform's limit, the first chunks replacing the messages already shown,
 * the rest sent as new messages. A format the platform refuses is sent again as
 * plain text; a chunk it finds too long, split again shorter. Returns the
 * messages holding the answer, in reading order.
 *
 * A message of `screen` that cannot take its chunk keeps what it shows, and the
 * answer goes on exactly where that ends (`continueAfter`), so each part of the
 * answer is shown once, in order.
 */
export async function deliverFinal(
  context: DeliveryContext,
  screen: ScreenSlot[],
  markdown: string,
  buttons?: Button[],
  options: FinalOptions = {},
): Promise<SentMessage[]> {
  const { capabilities } = context;
  let markup = capabilities.markup;
  let maxLength = capabilities.maxMessageLength;
  let onScreen = screen;
  const placed: ScreenSlot[] = [];
  for (let reshaped = 0; ; reshaped++) {
    const laid = layOutFinal(
      markdown,
      { ...capabilities, maxMessageLength: maxLength },
      markup,
      (context.texts ?? userTexts).emptyAnswer,
    );
    const consumed = { count: 0 };
    try {
      await place(context, laid, startOf(context, laid, options.after ?? ''), onScreen, buttons, placed, consumed);
      return placed.map((slot) => slot.message);
    } catch (error) {
      const badFormat = isPlatformError(error, 'bad-format') && markup !== plainMarkup;
      const tooLong = isPlatformError(error, 'too-long') && reshaped < MAX_RESHAPES;
      if (!badFormat && !tooLong) throw error;
      context.logger.warn(
        { err: error },
        badFormat
          ? 'the platform refused the formatted answer; sending it as plain text'
          : 'the platform found a chunk too long; splitting shorter',
      );
      if (badFormat) markup = plainMarkup;
      else maxLength = Math.max(1, Math.floor(maxLength * TOO_LONG_SHRINK_FACTOR));
      // Whatever was placed already is on screen now and is replaced like the rest.
      onScreen = [...placed, ...onScreen.slice(consumed.count)];
      placed.length = 0;
    }
  }
}

/** Plain text once, shorter twice: past that the platform is refusing for another reason. */
const MAX_RESHAPES = 3;

/** Where in the final answer's visible text the delivery starts: after `after`, or at 0 when the answer does not begin with it. */
function startOf(context: DeliveryContext, laid: LaidOutAnswer, after: string): number {
  if (after === '') return 0;
  if (laid.visible.startsWith(after)) return after.length;
  context.logger.info(
    'the final answer differs from the text of messages that can no longer be edited; sending it whole after them',
  );
  return 0;
}

/**
 * Places the chunks of `laid` from `from` on: into the slots of `screen` in order while they
 * take them, then in new messages. `consumed.count` says how many slots of `screen` were used.
 */
async function place(
  context: DeliveryContext,
  laid: LaidOutAnswer,
  from: number,
  screen: ScreenSlot[],
  buttons: Button[] | undefined,
  placed: ScreenSlot[],
  consumed: { count: number },
): Promise<void> {
  const withButtons = context.capabilities.buttons && buttons && buttons.length > 0 ? buttons : undefined;
  let chunks = laid.chunksFrom(from);
  let replacing = true;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index] as PlacedChunk;
    const chunkButtons = index === chunks.length - 1 ? withButtons : undefined;
    const slot = replacing ? screen[consumed.count] : undefined;
    if (slot) {
      consumed.count++;
      const outcome = await replaceInPlace(context, slot, chunk.text, chunkButtons);
      if (outcome === 'done') {
        slot.shows = { from: chunk.from, upTo: laid.visible.slice(0, chunk.to) };
        placed.push(slot);
        continue;
      }
      const goOn = outcome === 'sealed' ? continueAfter(slot, laid, chunk.from) : undefined;
      if (goOn) {
        if (goOn.kept) placed.push(slot);
        else
          context.logger.info(
            { message: slot.message.id },
            'the final answer differs from the text of a message that can no longer be edited; sending it whole after it',
          );
        // The chunks from where the answer goes on, into the next messages on screen or new ones.
        chunks = laid.chunksFrom(goOn.from);
        index = -1;
        continue;
      }
      // Failed otherwise (gone, or a rate limit that outlasted the retries): from this message on,
      // the answer continues in new messages, so it still reads in order (the stale one keeps its partial text).
      replacing = false;
    }
    const sentAt = Date.now();
    const message = await withFinalRetries(
      context,
      () =>
        context.outbound.send(context.conversation, {
          text: chunk.text,
          ...(chunkButtons ? { buttons: chunkButtons } : {}),
        }),
      { lastResort: true },
    );
    const sent = messageSlot(context, message, chunk.text, chunkButtons, sentAt);
    sent.shows = { from: chunk.from, upTo: laid.visible.slice(0, chunk.to) };
    placed.push(sent);
  }
  if (replacing) {
    await retireSurplus(context, screen.slice(consumed.count));
    consumed.count = screen.length;
  }
  // The last message could not take the buttons (a platform that refused them on an
  // edit), or the answer needed no new text: they come in a message of their own.
  if (withButtons && !sameButtons(placed.at(-1)?.buttons, withButtons)) await deliverButtons(context, withButtons);
}

/**
 * Where the answer goes on after a message that can no longer be edited and so keeps what
 * it shows (its chunk would have started at `chunkFrom`), and whether that message is one of
 * the answer's: when it shows a part of the final answer, the answer goes on where that part
 * ends; when it shows text the final answer does not have (the final differs from what was
 * streamed), the whole final answer comes after it. Undefined when what it shows is unknown.
 */
function continueAfter(
  slot: ScreenSlot,
  laid: LaidOutAnswer,
  chunkFrom: number,
): { kept: boolean; from: number } | undefined {
  const shows = slot.shows;
  if (!shows) return undefined;
  if (!laid.visible.startsWith(shows.upTo)) return { kept: false, from: 0 };
  // A part starting later than the answer has reached would leave a gap: it comes again after it.
  if (shows.from > chunkFrom) return { kept: false, from: chunkFrom };
  return { kept: true, from: Math.max(chunkFrom, shows.upTo.length) };
}

/**
 * The answer's buttons in a short message of their own, for when the message ending
 * the answer cannot carry them (a native stream, a refused edit). Nothing without buttons,
 * or on a platform that has none.
 */
export async function deliverButtons(context: DeliveryContext, buttons: Button[] | undefined): Promise<void> {
  if (!context.capabilities.buttons || !buttons?.length) return;
  await withFinalRetries(context, () =>
    context.outbound.send(context.conversation, { text: (context.texts ?? userTexts).buttonsMessage, buttons }),
  );
}

/**
 * 'done' when the slot now shows `text` (with `buttons` when it can carry them);
 * 'sealed' when the message can no longer be edited and keeps what it shows;
 * 'failed' when the edit failed otherwise, or the message is gone.
 */
async function replaceInPlace(
  context: DeliveryContext,
  slot: ScreenSlot,
  text: string,
  buttons: Button[] | undefined,
): Promise<ReplaceOutcome> {
  const attach = buttons && slot.buttonsOnReplace ? buttons : undefined;
  // An edit without buttons also takes away buttons the message had, so those count as a change too.
  const unchanged = slot.text === text && (!slot.buttonsOnReplace || sameButtons(slot.buttons, attach));
  if (unchanged) return 'done';
  if (attach) {
    const outcome = await tryReplace(context, slot, text, attach);
    if (outcome !== 'refused') return outcome;
    // Maybe the buttons were the problem: the text alone, and the buttons come separately.
    context.logger.info(
      { message: slot.message.id },
      'the platform refused buttons on an edit; sending them in a message of their own',
    );
  }
  const outcome = await tryReplace(context, slot, text, undefined);
  return outcome === 'refused' ? 'failed' : outcome;
}

type ReplaceOutcome = 'done' | 'sealed' | 'failed';

/**
 * One final replacement. 'refused' only when buttons were attached and the
 * platform refused the edit for a reason that is neither the text nor the
 * message being gone (e.g. 'unsupported'), so the edit is worth trying without them.
 */
async function tryReplace(
  context: DeliveryContext,
  slot: ScreenSlot,
  text: string,
  buttons: Button[] | undefined,
): Promise<ReplaceOutcome | 'refused'> {
  const replace = slot.replace;
  // Sealed before (by the renderer, or an earlier try): it keeps what it shows.
  if (!replace) return 'sealed';
  try {
    await withFinalRetries(context, () => replace(text, buttons));
  } catch (error) {
    // These concern the text, not the message: a new message would be refused too. An unreachable
    // platform (or one refusing the token) was retried up to the horizon already: a new message would not get through either.
    if (isPlatformError(error, 'bad-format') || isPlatformError(error, 'too-long') || isPlatformOutage(error))
      throw error;
    if (!isPlatformError(error, 'not-modified')) {
      const aboutButtons = buttons && (isPlatformError(error, 'unsupported') || isPlatformError(error, 'other'));
      if (aboutButtons) return 'refused';
      if (isNoLongerEditable(error)) {
        // Expected past an edit window (a long answer, a slow stream): not a fault.
        context.logger.info(
          { err: error, message: slot.message.id },
          'the message can no longer be edited; the final answer continues in a new message',
        );
        delete slot.replace;
        // A message that is gone shows nothing: its part has to come again.
        return isPlatformError(error, 'not-found') ? 'failed' : 'sealed';
      } else {
        context.logger.warn(
          { err: error, message: slot.message.id },
          'final update failed; sending the text as a new message',
        );
      }
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
  const superseded = (context.texts ?? userTexts).supersededMessage;
  for (const slot of surplus) {
    try {
      if (slot.replace && slot.text !== superseded) await slot.replace(superseded);
    } catch (error) {
      context.logger.warn(
        { err: error, message: slot.message.id },
        'could not empty a message the final answer no longer needs',
      );
    }
  }
}
