import { InflightRecorder } from '../../../../../src/gateway/relay/index.js';
import type { RelayRequest } from '../../../../../src/gateway/relay/index.js';
import {
  plainMarkup,
  type Capabilities,
  type ConversationRef,
  type PlatformUser,
} from '../../../../../src/contract.js';
import { silentLogger } from '../../../../../src/logger.js';
import { MemoryStateStore } from '../../../../../src/state/index.js';
import type { AskFinal, AskStreamEvent } from '../../../../../src/upstream/api.js';
import type { OfferedMethods, RecordingPlatform } from './recording-platform.js';

export const conversation: ConversationRef = { bot: 'main', platform: 'fake', id: 'chat-1' };
/** The user the answers reply to (a native stream names its recipient). */
export const asker: PlatformUser = { id: 'U123', name: 'Ada', team: 'T456' };

/** Small pacing so tests run fast; no test asserts on time. */
export const FAST_PACING = {
  editIntervalMs: { private: 20, group: 20 },
  draftIntervalMs: 10,
  minInitialChars: 10,
  minGrowthChars: 10,
} as const;

export function capabilities(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    maxMessageLength: 4096,
    markup: plainMarkup,
    editIntervalMs: { private: 20, group: 20 },
    typingLifetimeMs: 0,
    buttons: true,
    maxFilesPerMessage: 1,
    maxDownloadBytes: 20_000_000,
    ...overrides,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StreamOptions {
  /** Pause before each fragment (ms). */
  delayMs?: number;
  /** The final event: defaults to the fragments joined; null ends the stream without one. */
  final?: Partial<AskFinal> | null;
  /** Throws this after the fragments instead of ending. */
  failWith?: Error;
}

/** An answer stream as the upstream client yields it: fragments, then one final. */
export async function* answerStream(
  fragments: readonly string[],
  options: StreamOptions = {},
): AsyncGenerator<AskStreamEvent> {
  for (const content of fragments) {
    await sleep(options.delayMs ?? 2);
    yield { type: 'fragment', content };
  }
  if (options.failWith) throw options.failWith;
  if (options.final === null) return;
  yield {
    type: 'final',
    questionId: 1,
    answerId: 2,
    answer: fragments.join(''),
    totalToken: 10,
    noAnswer: false,
    incomplete: false,
    ...options.final,
  };
}

/** Cuts a text into fragments of about `size` characters, like a model streaming tokens. */
export function fragmentsOf(text: string, size = 7): string[] {
  const fragments: string[] = [];
  for (let i = 0; i < text.length; i += size) fragments.push(text.slice(i, i + size));
  return fragments;
}

/** Whitespace-insensitive view of a text: splits may fall on (and drop) spaces and line breaks. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A relay request on the fake platform, its capabilities matching the platform's rules;
 * `shape` says which optional methods the platform offers (edits by default) and overrides capabilities.
 */
export function request(
  platform: RecordingPlatform,
  answer: AsyncIterable<AskStreamEvent>,
  shape: Partial<Capabilities> & OfferedMethods = {},
  overrides: Partial<RelayRequest> = {},
): RelayRequest {
  const { edit, draft, startStream, ...platformCapabilities } = shape;
  return {
    outbound: platform.offering({
      ...(edit !== undefined ? { edit } : {}),
      ...(draft !== undefined ? { draft } : {}),
      ...(startStream !== undefined ? { startStream } : {}),
    }),
    capabilities: capabilities({
      markup: platform.markup,
      maxMessageLength: platform.rules.maxMessageLength ?? 4096,
      ...platformCapabilities,
    }),
    conversation,
    isGroup: false,
    recipient: asker,
    answer,
    inflight: new InflightRecorder(new MemoryStateStore()),
    pacing: FAST_PACING,
    logger: silentLogger(),
    ...overrides,
  };
}

/** Waits until `condition` holds (for behaviour that happens on timers), failing after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

export const LONG_ANSWER = [
  'Here are three homes that match what you asked for.',
  'The first is a two-bedroom condo downtown, close to the river and the market.',
  'The second is a three-bedroom house with a garden, ten minutes from the schools.',
  'The third is a loft above a bakery, bright and quiet, with parking for one car.',
  'All three are for sale, and I can tell you more about any of them.',
].join(' ');

/**
 * Whether texts read one after another are exactly `answer`: each part once, in order,
 * nothing repeated and nothing missing (an answer continued in new messages after one
 * could no longer be edited). Only the whitespace where one text ends and the next
 * begins may differ, since a cut drops it.
 */
export function readsOnce(texts: readonly string[], answer: string): boolean {
  const literal = (text: string) => text.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*${texts.map(literal).join('\\s*')}\\s*$`).test(answer);
}
