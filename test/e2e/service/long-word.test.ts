import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERIAL_NUMBER, DEFAULT_LIMITS } from '../../../src/service/index.js';
import { SERVICE_SECRET, startServiceProcess, type ServiceProcess } from '../../support/service-process.js';

/** Asks sent together: the longer the service works on them, the clearer it shows whether it still serves others meanwhile. */
const PARALLEL_ASKS = 8;

/** A word of `length` letters with no space: the input that made token counting quadratic. */
const word = (length: number) => Array.from({ length }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('');

describe('the embedded service, as a process, given one word of 20,000 letters (issue #7 item 10)', () => {
  let service: ServiceProcess;
  let sessionId: number;

  beforeAll(async () => {
    service = await startServiceProcess();
    const session = await service.call('/chat/Chatbot/GetSession', { serialNumber: DEMO_SERIAL_NUMBER });
    sessionId = (session.body.Data as { SessionID: number }).SessionID;
  }, 60_000);
  afterAll(() => service?.cleanup());

  const ask = (content: string, stream = false) =>
    fetch(`${service.url}/chat/Chat/ClientAsk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: SERVICE_SECRET },
      body: JSON.stringify({ sessionID: sessionId, content, stream }),
    });

  it('keeps answering other requests while it counts the tokens of such words', async () => {
    const events: string[] = [];
    let firstFragment!: () => void;
    const fragmentSeen = new Promise<void>((resolve) => (firstFragment = resolve));
    let firstFinal!: () => void;
    const finalSeen = new Promise<void>((resolve) => (firstFinal = resolve));
    // Streamed, so the first fragment shows the engine is done and the token count (sent in the final event) is under way.
    const asks = Array.from({ length: PARALLEL_ASKS }, async () => {
      const response = await ask(word(DEFAULT_LIMITS.contentChars), true);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += chunk.value;
        if (text.includes('"content"')) firstFragment();
      }
      events.push('final answer');
      firstFinal();
      return text;
    });

    await fragmentSeen;
    const probe = fetch(`${service.url}/chat/Chatbot/ModelList`, {
      method: 'POST',
      headers: { authorization: SERVICE_SECRET },
    }).then((response) => events.push(`probe ${response.status}`));
    await Promise.race([probe, finalSeen]);

    // The cheap request sent after the counting began was answered before any of the counts finished.
    expect(events[0]).toBe('probe 200');
    const answers = await Promise.all(asks);
    expect(events.filter((e) => e === 'final answer')).toHaveLength(PARALLEL_ASKS);
    for (const text of answers) expect(text).toMatch(/"TotalToken":[1-9]\d*/);
  }, 90_000);

  it('answers a Telegram-size word of 4,096 letters', async () => {
    const response = await ask(word(4096));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ Success: true, Data: { totalToken: expect.any(Number) as number } });
  }, 60_000);

  it('refuses content over its 20,000-character limit with an error that names the field', async () => {
    const response = await ask(word(DEFAULT_LIMITS.contentChars + 1));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      Success: false,
      Code: 400,
      Message: 'content must be at most 20000 characters long.',
    });
  }, 60_000);
});
