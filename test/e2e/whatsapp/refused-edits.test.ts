/**
 * WhatsApp refusing edits mid-answer, with `chatbridge start` as a process (WHATSAPP_ENABLED,
 * the embedded service and its demo chatbot, whatsapp-web.js swapped for the fake). The rule
 * the user can read: a message WhatsApp will not edit keeps what it shows, and the answer
 * goes on in a new message exactly where that text ends. The answer's messages, read one
 * after another, are the answer once: each part once, in order, nothing repeated, nothing
 * missing (only the whitespace at a cut between two messages may differ).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import type { ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startLinkedWhatsAppGateway } from '../../support/whatsapp-process.js';

const WELCOME = "Hi! I'm the Oakridge Homes assistant.";
/** The demo's long answer: eight listings, five shown, about 650 characters. */
const LONG_QUESTION = 'Which homes do you have in Austin, Denver and Portland?';
const LONG_ANSWER_END = 'Tell me more about what you need to narrow it down.';
const SHORT_QUESTION = 'Do you have homes in Paris?';
const SHORT_ANSWER = 'I could not find any listing in Paris. Our listings are in Austin, Denver and Portland.';
/** WhatsApp's own edit window; an edit window of 0 refuses every edit from now on. */
const WHATSAPP_EDIT_WINDOW_MS = 15 * 60_000;

/**
 * Whether texts read one after another are exactly `answer`: each part once, in order.
 * Only the whitespace where one message ends and the next begins may differ.
 */
function readsOnce(texts: readonly string[], answer: string): boolean {
  const literal = (text: string) => text.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\s*${texts.map(literal).join('\\s*')}\\s*$`).test(answer);
}

describe('WhatsApp refusing edits mid-answer, with chatbridge start as a process', () => {
  let fake: FakeWhatsApp;
  let gateway: ChatbridgeProcess;
  /** The long answer as one message shows it, from a chat where every edit was taken. */
  let wholeLongAnswer: string;

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    gateway = await startLinkedWhatsAppGateway(fake);
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  const chatOf = (number: string) => `${number}@c.us`;
  /** The bot's messages in the chat after its greeting: the answer's. */
  const answerMessages = (chat: string) => fake.screen(chat).filter((text) => !text.includes(WELCOME));
  /** Asks, and waits until the chat's last message ends the answer. */
  const ask = async (number: string, question: string, end: string, onFirstMessage?: () => void) => {
    const chat = chatOf(number);
    fake.userSends({ from: number, text: question });
    if (onFirstMessage) {
      await fake.waitFor(() => answerMessages(chat).length > 0, {
        timeoutMs: 45_000,
        what: 'the first message of the answer',
      });
      onFirstMessage();
    }
    await fake.waitFor(() => answerMessages(chat).at(-1)?.trimEnd().endsWith(end) === true, {
      timeoutMs: 45_000,
      what: 'the end of the answer',
    });
    return answerMessages(chat);
  };

  it('with every edit taken, the long answer ends in one message (the reference for the others)', async () => {
    const messages = await ask('4915100000301', LONG_QUESTION, LONG_ANSWER_END);
    expect(messages).toHaveLength(1);
    wholeLongAnswer = messages[0]!;
    expect(wholeLongAnswer).toMatch(/^I found 8 listings that match:/);
    expect(wholeLongAnswer).toContain('• Apartment, 2200 Guadalupe St Apt 5B, Austin');
    expect(wholeLongAnswer.length).toBeGreaterThan(600);
  }, 60_000);

  it('a short answer whose only edit (the final one) is refused: the rest follows in a second message, once', async () => {
    fake.refuseNextEdit(1);
    const messages = await ask('4915100000302', SHORT_QUESTION, 'Austin, Denver and Portland.');

    // The refused edit left the first message as it was, and a second one holds the rest.
    expect(messages).toHaveLength(2);
    expect(readsOnce(messages, SHORT_ANSWER)).toBe(true);
  }, 60_000);

  it('a long answer whose first edit is refused: the first message keeps its text, the next goes on from there', async () => {
    fake.refuseNextEdit(1);
    const messages = await ask('4915100000303', LONG_QUESTION, LONG_ANSWER_END);

    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(readsOnce(messages, wholeLongAnswer)).toBe(true);
    expect(messages.join('').length).toBeLessThanOrEqual(wholeLongAnswer.length);
  }, 60_000);

  it('a long answer whose edits are refused from its first edit on: every part once, in order', async () => {
    // The message that starts the answer is sent; from then on WhatsApp edits nothing.
    const messages = await ask('4915100000304', LONG_QUESTION, LONG_ANSWER_END, () => fake.setEditWindowMs(0));
    fake.setEditWindowMs(WHATSAPP_EDIT_WINDOW_MS);

    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages[0]).toMatch(/^I found 8 listings that match:/);
    expect(readsOnce(messages, wholeLongAnswer)).toBe(true);
    // Nothing is shown twice: the messages hold no more than the answer.
    expect(messages.join('').length).toBeLessThanOrEqual(wholeLongAnswer.length);
  }, 60_000);

  it('a long answer whose edits are refused from the middle on (after an edit was taken): every part once, in order', async () => {
    const number = '4915100000305';
    const chat = chatOf(number);
    fake.userSends({ from: number, text: LONG_QUESTION });
    // The answer's first message, then one edit of it taken: from then on WhatsApp edits nothing.
    await fake.waitFor(() => fake.renders(chat).filter((text) => !text.includes(WELCOME)).length >= 2, {
      timeoutMs: 45_000,
      what: 'an edit of the answer',
    });
    fake.setEditWindowMs(0);
    await fake.waitFor(() => answerMessages(chat).at(-1)?.trimEnd().endsWith(LONG_ANSWER_END) === true, {
      timeoutMs: 45_000,
      what: 'the end of the answer',
    });
    fake.setEditWindowMs(WHATSAPP_EDIT_WINDOW_MS);
    const messages = answerMessages(chat);

    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(readsOnce(messages, wholeLongAnswer)).toBe(true);
    expect(messages.join('').length).toBeLessThanOrEqual(wholeLongAnswer.length);
  }, 60_000);
});
