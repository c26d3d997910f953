/**
 * The adapter conformance suite: the same scenarios, through the real gateway core
 * on Redis, against every platform's adapter and fake. A platform passes when a
 * user of it gets what README promises: the welcome, answers streamed and ending
 * complete, in order, once, files taken or refused with a reason, buttons that
 * work, and answers that survive a 429, an outage and a crashed process. A
 * platform that cannot have a scenario declares it not applicable with a reason,
 * and the suite reports it skipped with that reason.
 *
 *   describeAdapterConformance({ platform: 'slack', notApplicable: {…}, createDriver });
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replies } from '../../src/gateway/index.js';
import { CLIENT_ASK_CONTENT_MAX_CHARS } from '../../src/upstream/index.js';
import { SCENARIOS, type ConformanceDriver, type ConformanceTarget, type Scenario } from './driver.js';
import { fullAnswer } from './scripted-service.js';
import { ConformanceStack, WELCOME } from './stack.js';

const JPEG = new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/media/tiny.jpg')));
/** A real PDF's first bytes: a document of a type the service does not take. */
const PDF = new TextEncoder().encode('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** Half again as long as the service takes, and within what Slack (40,000) and WhatsApp (65,536) let a user send. */
const TOO_LONG = Array.from({ length: 1_200 }, () => 'Please read all of this.').join(' ');
/** Process-level scenarios on a busy 2-core machine: generous, never asserted on. */
const SCENARIO_TIMEOUT_MS = 90_000;

/** A render of the answer to `question` that is only part of it (shown while it was written). */
const isPartOf = (question: string) => (text: string) =>
  text.includes(`About ${question}`) && !text.includes('The third part ends it.');
const count = (texts: string[], text: string) => texts.filter((t) => t === text).length;

function need<K extends keyof ConformanceDriver>(
  driver: ConformanceDriver,
  method: K,
  scenario: Scenario,
): NonNullable<ConformanceDriver[K]> {
  const implementation = driver[method];
  if (!implementation) {
    throw new Error(
      `The driver has no ${String(method)}(): implement it, or declare "${scenario}" in notApplicable with the reason.`,
    );
  }
  return (implementation as (...args: unknown[]) => unknown).bind(driver) as NonNullable<ConformanceDriver[K]>;
}

/** What each scenario proves, as its test title says it. */
const TITLES: Record<Scenario, string> = {
  welcome: "/start greets with the chatbot's WelcomeMessage",
  'streamed answer': 'an answer is shown while it is written and ends as the full answer, once',
  'message mid-answer': 'a message sent while an answer is written is answered next, in order',
  'duplicate delivery': 'a message the platform delivers twice is answered once',
  'media accepted': 'a photo reaches the service as an image and is answered',
  'media refused': 'a file the service does not take is refused with what to send instead',
  'media gone':
    'a photo the platform no longer has is said to be gone, and its caption is answered as a question without it',
  'button pressed': 'pressing a button (listings Next) shows the next page',
  '429 on the final': 'a 429 on the final answer is waited out and the answer arrives complete, once',
  'unreachable on the final':
    'the final answer is kept while the platform is unreachable and delivered complete, once, when it is back',
  'crash and takeover': 'a message whose gateway stops mid-answer is answered in full by another gateway instance',
  'message too long':
    'a message (or a caption) longer than the service takes is answered with the limit, kept in the transcript, and not asked',
};

type Body = (stack: ConformanceStack, driver: ConformanceDriver) => Promise<void>;

const SCENARIO_BODIES: Record<Scenario, Body> = {
  async welcome(stack, driver) {
    await driver.userSends('/start');
    await stack.until(() => driver.screen().some((text) => text.includes(WELCOME)), 'the welcome message');
  },

  async 'streamed answer'(stack, driver) {
    const question = 'streamed question';
    const held = stack.service.holdNextAnswer();
    await driver.userSends(question);
    await held.reached;
    await stack.until(() => driver.renders().some(isPartOf(question)), 'part of the answer, shown while it is written');
    held.release();
    await stack.until(
      () => driver.screen().at(-1) === fullAnswer(question),
      'the full answer as the last thing the user sees',
    );
    expect(count(driver.screen(), fullAnswer(question))).toBe(1);
  },

  async 'message mid-answer'(stack, driver) {
    const held = stack.service.holdNextAnswer();
    await driver.userSends('first question');
    await held.reached;
    await driver.userSends('second question');
    // Queued behind the answer in progress, not answered alongside it.
    await stack.until(() => stack.instances[0]!.accepted.length === 2, 'the second message queued');
    held.release();
    await stack.until(
      () => driver.screen().includes(fullAnswer('second question')),
      'the answer to the second message',
    );
    const screen = driver.screen();
    expect(screen.indexOf(fullAnswer('first question'))).toBeGreaterThanOrEqual(0);
    expect(screen.indexOf(fullAnswer('second question'))).toBeGreaterThan(screen.indexOf(fullAnswer('first question')));
    expect(stack.service.questions).toEqual(['first question', 'second question']);
  },

  async 'duplicate delivery'(stack, driver) {
    await need(driver, 'userSendsTwice', 'duplicate delivery')('question delivered twice');
    await stack.until(() => driver.screen().includes(fullAnswer('question delivered twice')), 'the answer');
    // The platform delivers in order: once this is answered, the duplicate was long seen.
    await driver.userSends('next question');
    await stack.until(() => driver.screen().includes(fullAnswer('next question')), 'the answer to the next message');
    expect(count(driver.screen(), fullAnswer('question delivered twice'))).toBe(1);
    expect(stack.service.questions).toEqual(['question delivered twice', 'next question']);
  },

  async 'media accepted'(stack, driver) {
    await driver.userSendsFile(
      { bytes: JPEG, fileName: 'house.jpg', mimeType: 'image/jpeg', as: 'photo' },
      'photo question',
    );
    await stack.until(() => driver.screen().includes(fullAnswer('photo question')), 'the answer to the photo');
    expect(stack.service.uploads.map((file) => file.contentType)).toEqual(['image/jpeg']);
    expect(stack.service.uploads[0]!.bytes).toEqual(JPEG);
  },

  async 'media refused'(stack, driver) {
    await driver.userSendsFile(
      { bytes: PDF, fileName: 'brochure.pdf', mimeType: 'application/pdf', as: 'document' },
      '',
    );
    await stack.until(() => driver.screen().length > 0, 'a reply to the file');
    // The user is told what can be sent instead; nothing reached the service.
    expect(driver.screen().at(-1)).toMatch(/photo|image|video|voice|audio/i);
    expect(stack.service.uploads).toEqual([]);
    expect(stack.service.questions).toEqual([]);
  },

  async 'media gone'(stack, driver) {
    const question = 'gone photo question';
    await need(
      driver,
      'userSendsGoneFile',
      'media gone',
    )({ bytes: JPEG, fileName: 'house.jpg', mimeType: 'image/jpeg', as: 'photo' }, question);
    await stack.until(() => driver.screen().includes(fullAnswer(question)), 'the answer to the caption');
    const screen = driver.screen();
    const note = screen.findIndex((text) => /no longer has its file/.test(text));
    // Said before the answer, with why (gone, not too large) and that the message is answered without it.
    expect(note).toBeGreaterThanOrEqual(0);
    expect(note).toBeLessThan(screen.indexOf(fullAnswer(question)));
    expect(screen[note]).toMatch(/answering your message without it/);
    expect(screen[note]).not.toMatch(/smaller/);
    expect(stack.service.uploads).toEqual([]);
    expect(stack.service.questions).toEqual([question]);
  },

  async 'button pressed'(stack, driver) {
    await driver.userSends('/listings');
    await stack.until(() => driver.buttons().some((label) => /next/i.test(label)), 'the listings with a Next button');
    expect(driver.screen().join('\n')).toContain('101 Conformance Lane');
    expect(driver.screen().join('\n')).not.toContain('303 Conformance Lane');
    await driver.pressButton(driver.buttons().find((label) => /next/i.test(label))!);
    await stack.until(
      () => driver.screen().some((text) => text.includes('303 Conformance Lane')),
      'the second page of listings',
    );
  },

  async '429 on the final'(stack, driver) {
    const question = 'question met by a 429';
    await need(driver, 'rateLimitNextFinal', '429 on the final')();
    await driver.userSends(question);
    await stack.until(() => driver.screen().at(-1) === fullAnswer(question), 'the full answer after the 429');
    expect(count(driver.screen(), fullAnswer(question))).toBe(1);
    // The core reports a delivered answer after the platform has shown it, so wait for that report.
    await stack.until(() => stack.instances[0]!.answered.length > 0, 'the core reporting the answer delivered');
    // The adapter reported the 429 as one (the core waited and tried again), not as a refusal.
    expect(stack.instances[0]!.rateLimited.count).toBeGreaterThan(0);
  },

  async 'unreachable on the final'(stack, driver) {
    const question = 'question answered during an outage';
    const goUnreachable = need(driver, 'goUnreachable', 'unreachable on the final');
    const comeBack = need(driver, 'comeBack', 'unreachable on the final');
    const held = stack.service.holdNextAnswer();
    await driver.userSends(question);
    await held.reached;
    await goUnreachable();
    held.release();
    // The adapter reported the outage as 'unreachable': the core keeps the answer and retries.
    await stack.until(
      () => stack.logged(/unreachable/i),
      'the core keeping the final answer while the platform is unreachable',
    );
    expect(driver.screen()).not.toContain(fullAnswer(question));
    await comeBack();
    await stack.until(
      () => driver.screen().at(-1) === fullAnswer(question),
      'the full answer once the platform is back',
    );
    expect(count(driver.screen(), fullAnswer(question))).toBe(1);
  },

  async 'crash and takeover'(stack, driver) {
    const question = 'question taken over';
    const [first] = stack.instances;
    const held = stack.service.holdNextAnswer();
    await driver.userSends(question);
    await held.reached;
    const second = await stack.startInstance();
    // The first process goes away mid-answer; its message is still queued, and the second takes it over.
    await first!.stop();
    held.release();
    await stack.until(
      () => driver.screen().at(-1) === fullAnswer(question),
      'the full answer from the second instance',
    );
    expect(count(driver.screen(), fullAnswer(question))).toBe(1);
    await stack.until(() => second.answered.length === 1, 'the second instance to report the answer delivered');
    expect(first!.answered).toEqual([]);
    expect(stack.service.questions).toEqual([question, question]);
  },

  async 'message too long'(stack, driver) {
    const limit = CLIENT_ASK_CONTENT_MAX_CHARS;
    const caption = 'x'.repeat(limit + 1);
    await driver.userSends(TOO_LONG);
    await stack.until(
      () => driver.screen().includes(replies.messageTooLong(limit, TOO_LONG.length)),
      'the reply naming the limit',
    );
    expect(replies.messageTooLong(limit, TOO_LONG.length)).toContain('up to 20,000 characters');
    // A photo with a caption one character over: refused alike, and the photo is not uploaded to the service.
    await driver.userSendsFile({ bytes: JPEG, fileName: 'house.jpg', mimeType: 'image/jpeg', as: 'photo' }, caption);
    await stack.until(
      () => driver.screen().includes(replies.messageTooLong(limit, limit + 1)),
      'the reply naming the limit to the caption',
    );
    await driver.userSends('next question');
    await stack.until(() => driver.screen().includes(fullAnswer('next question')), 'the answer to the next message');
    expect(driver.screen()).toEqual([
      replies.messageTooLong(limit, TOO_LONG.length),
      replies.messageTooLong(limit, limit + 1),
      fullAnswer('next question'),
    ]);
    expect(stack.service.questions).toEqual(['next question']);
    expect(stack.service.uploads).toEqual([]);
    // Nothing the user sent is dropped: the refused messages are in the transcript with the answered one.
    // The turn writes its entries with the queue advance, just after the answer is shown: wait for it.
    const conversation = stack.instances[0]!.accepted[0]!;
    const userEntries = async () =>
      (await stack.instances[0]!.gateway.transcript.read(conversation))
        .filter((entry) => entry.role === 'user')
        .map((entry) => entry.text);
    await vi.waitFor(async () => expect(await userEntries()).toEqual([TOO_LONG, caption, 'next question']), {
      timeout: 10_000,
    });
  },
};

export function describeAdapterConformance(target: ConformanceTarget): void {
  describe(`adapter conformance: ${target.platform}`, () => {
    let stack: ConformanceStack | undefined;
    afterEach(async () => {
      await stack?.close();
      stack = undefined;
    });

    for (const scenario of SCENARIOS) {
      const reason = target.notApplicable?.[scenario];
      if (reason) {
        it.skip(`${scenario}: not applicable to ${target.platform}: ${reason}`, () => undefined);
        continue;
      }
      it(
        `${scenario}: ${TITLES[scenario]}`,
        async () => {
          const driver = await target.createDriver();
          stack = await ConformanceStack.start(target.platform, driver);
          await SCENARIO_BODIES[scenario](stack, driver);
        },
        SCENARIO_TIMEOUT_MS,
      );
    }
  });
}
