/**
 * Slack's AI assistant pane ("Agents & AI Apps"), besides the greeting (inbound.ts) and
 * the "is thinking…" status (outbound.ts): the chatbot's SuggestedMessage offered as
 * suggested prompts under the welcome, and the thread titled after the user's first
 * question, so the pane's history list shows what each thread was about.
 *
 * Both are extras: a refusal is logged and never fails the answer (the welcome is already
 * posted; sending it again because its prompts failed would show it twice).
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../src/contract.js';
import { isDirectMessage, parseConversationId } from './conversation.js';

/** assistant.threads.setSuggestedPrompts takes up to four prompts (docs/platforms.md §B.6). */
export const MAX_SUGGESTED_PROMPTS = 4;
/** A prompt's title is a button-sized label; the full suggestion is what it sends. */
const PROMPT_TITLE_MAX_CHARS = 75;
/** A thread title is one line in the pane's history; longer questions are cut at a word. */
export const THREAD_TITLE_MAX_CHARS = 80;
/** Threads titled per process; the oldest are forgotten first. */
const REMEMBERED_TITLES = 10_000;

function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (oneLine.length <= max) return oneLine;
  const cut = oneLine.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

export function suggestedPrompts(suggestions: readonly string[]): { title: string; message: string }[] {
  return suggestions
    .map((suggestion) => suggestion.trim())
    .filter((suggestion) => suggestion !== '')
    .slice(0, MAX_SUGGESTED_PROMPTS)
    .map((suggestion) => ({ title: shorten(suggestion, PROMPT_TITLE_MAX_CHARS), message: suggestion }));
}

/** The assistant thread a conversation id names, if it can be one (a thread of a DM). */
export function assistantThreadOf(conversationId: string): { channel: string; threadTs: string } | undefined {
  const { channel, threadTs } = parseConversationId(conversationId);
  return threadTs && isDirectMessage(channel) ? { channel, threadTs } : undefined;
}

export class AssistantPane {
  /** Threads already titled by this process (re-titling after a restart is harmless: it is the same kind of text). */
  private readonly titled = new Set<string>();

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
  ) {}

  /**
   * Offers the suggestions as prompts in an assistant thread. The manifest declares the
   * `assistant_view` experience, where the prompts belong to a thread (thread_ts). Caveat
   * (notes §B.6): an app switched to `agent_view` must leave thread_ts out, or Slack
   * silently ignores the call.
   */
  async offerPrompts(conversationId: string, suggestions: readonly string[]): Promise<void> {
    const thread = assistantThreadOf(conversationId);
    const prompts = suggestedPrompts(suggestions);
    if (!thread || prompts.length === 0) return;
    try {
      await this.client.assistant.threads.setSuggestedPrompts({
        channel_id: thread.channel,
        thread_ts: thread.threadTs,
        prompts,
      });
    } catch (error) {
      this.logger.warn(
        { err: error, conversation: conversationId },
        'slack: could not show the suggested prompts (assistant.threads.setSuggestedPrompts; needs assistant:write and the assistant pane in the app manifest)',
      );
    }
  }

  /** Titles an assistant thread after its first question (commands and file-only messages are not questions). */
  async titleFromQuestion(conversationId: string, question: string): Promise<void> {
    const thread = assistantThreadOf(conversationId);
    const title = shorten(question, THREAD_TITLE_MAX_CHARS);
    if (!thread || title === '' || title.startsWith('/') || this.titled.has(conversationId)) return;
    this.titled.add(conversationId);
    if (this.titled.size > REMEMBERED_TITLES) {
      const oldest = this.titled.values().next().value;
      if (oldest !== undefined) this.titled.delete(oldest);
    }
    try {
      await this.client.assistant.threads.setTitle({ channel_id: thread.channel, thread_ts: thread.threadTs, title });
    } catch (error) {
      this.logger.warn(
        { err: error, conversation: conversationId },
        'slack: could not title the assistant thread (assistant.threads.setTitle; needs assistant:write)',
      );
    }
  }
}
