/**
 * The users of the peers benchmark: `chats` private chats, each sending
 * `messages` questions one after another, the next as soon as the previous
 * answer is complete (its final visible text equals the bench's answer), all
 * chats at once. Every contender thus answers every message, whatever it does
 * with a second message while a first is being answered.
 */
import type { FakeTelegram } from '../../fakes/telegram/index.js';

export interface LoadResult {
  /** First message sent → last complete answer seen (ms). */
  elapsedMs: number;
  answers: number;
  /** Chats that did not get all their answers complete before the deadline. */
  incompleteChats: number;
  /** Bot messages that are not the complete answer (greetings, cut answers, error notices). */
  otherMessages: number;
  /** Bot API calls naming a chat, per method. */
  callsByMethod: Map<string, number>;
  /** Of those, how many the fake refused. */
  failedCalls: number;
}

const FIRST_CHAT = 700_001;
/** How often the users look at their chats (ms). */
const LOOK_EVERY_MS = 10;

export async function runLoad(
  fake: FakeTelegram,
  options: { chats: number; messages: number; answer: string; stallMs: number },
): Promise<LoadResult> {
  const chats = Array.from({ length: options.chats }, (_, i) => FIRST_CHAT + i);
  const asked = new Map<number, number>();
  const complete = (chat: number): number => fake.visibleMessages(chat).filter((m) => m.text === options.answer).length;
  const ask = (chat: number): void => {
    const n = (asked.get(chat) ?? 0) + 1;
    asked.set(chat, n);
    fake.userSends({
      chat,
      from: { id: chat, first_name: `User ${chat}` },
      text: `Tell me about the house on Maple Street (${n})`,
    });
  };

  const started = performance.now();
  let lastProgressAt = started;
  let lastAnswerAt = started;
  const waiting = new Set(chats);
  for (const chat of chats) ask(chat);
  while (waiting.size > 0 && performance.now() - lastProgressAt < options.stallMs) {
    await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
    for (const chat of waiting) {
      const done = complete(chat);
      if (done < (asked.get(chat) ?? 0)) continue;
      lastProgressAt = lastAnswerAt = performance.now();
      if (done >= options.messages) waiting.delete(chat);
      else ask(chat);
    }
  }

  const callsByMethod = new Map<string, number>();
  let failedCalls = 0;
  let otherMessages = 0;
  let answers = 0;
  for (const chat of chats) {
    for (const call of fake.chatLog(chat)) {
      callsByMethod.set(call.method, (callsByMethod.get(call.method) ?? 0) + 1);
      if (!call.ok) failedCalls++;
    }
    for (const message of fake.visibleMessages(chat)) {
      if (message.text === options.answer) answers++;
      else otherMessages++;
    }
  }
  return {
    elapsedMs: lastAnswerAt - started,
    answers,
    incompleteChats: waiting.size,
    otherMessages,
    callsByMethod,
    failedCalls,
  };
}
