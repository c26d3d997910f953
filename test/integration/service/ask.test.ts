import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcKeys } from '../../../src/service/state-keys.js';
import { readSse, SECRET, startTestService, type TestService } from './harness.js';

interface Answer {
  messageid: number;
  content: string;
  totalToken: number;
  noAnswer: boolean;
}

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function chatWith(settings: Record<string, unknown> = {}): Promise<{ serialNumber: string; sessionID: number }> {
  const serialNumber = await service.newChatbot(settings);
  await service.createListing(serialNumber, {
    City: 'Austin',
    Bedrooms: 3,
    SalePrice: 585000,
    MLSNumber: 'TX-1',
    Address: '1 Elm St',
  });
  await service.createListing(serialNumber, {
    City: 'Denver',
    Bedrooms: 2,
    SaleType: 'for_rent',
    SalePrice: undefined,
    RentPrice: 2350,
    MLSNumber: 'CO-2',
  });
  return { serialNumber, sessionID: await service.newSession(serialNumber) };
}

const ask = (body: Record<string, unknown>) => service.call<Answer>('/chat/Chat/ClientAsk', body);

const askStream = (body: Record<string, unknown>) =>
  fetch(`${service.url}/chat/Chat/ClientAsk`, {
    method: 'POST',
    headers: { authorization: SECRET, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });

describe('ClientAsk, not streamed', () => {
  it('answers with messageid, content, totalToken and noAnswer', async () => {
    const { sessionID } = await chatWith();
    const reply = await ask({ sessionID, content: 'Do you have homes for sale in Austin?' });
    expect(reply.body).toMatchObject({ Success: true, Code: 200 });
    const answer = reply.body.Data!;
    expect(Number.isInteger(answer.messageid)).toBe(true);
    expect(answer.content).toContain('1 Elm St, Austin');
    expect(answer.content).toContain('$585,000');
    expect(answer.totalToken).toBeGreaterThan(10);
    expect(answer.noAnswer).toBe(false);
  });

  it('greets with the WelcomeMessage', async () => {
    const { sessionID } = await chatWith({ WelcomeMessage: 'Howdy from the test bot!' });
    expect((await ask({ sessionID, content: 'Hello there' })).body.Data!.content).toBe('Howdy from the test bot!');
  });

  it('grounds answers in listings: rent, bedrooms, price, MLS', async () => {
    const { sessionID } = await chatWith();
    expect((await ask({ sessionID, content: 'anything to rent?' })).body.Data!.content).toContain('MLS CO-2');
    expect((await ask({ sessionID, content: 'a 3 bedroom house please' })).body.Data!.content).toContain('MLS TX-1');
    expect((await ask({ sessionID, content: 'homes under $500k' })).body.Data!.content).not.toContain('TX-1');
    const byMls = (await ask({ sessionID, content: 'tell me about mls TX-1' })).body.Data!;
    expect(byMls.content).toContain('I found 1 listing that matches:');
    const none = (await ask({ sessionID, content: '9 bedroom homes in Denver' })).body.Data!;
    expect(none.content).toBe('I could not find any listing in Denver with at least 9 bedrooms.');
  });

  it('reports noAnswer when it has nothing grounded to say', async () => {
    const { sessionID } = await chatWith();
    const answer = (await ask({ sessionID, content: 'What is the capital of Peru?' })).body.Data!;
    expect(answer.noAnswer).toBe(true);
    expect(answer.content).toContain('Austin and Denver');
  });

  it('speaks the AIResponseLanguage it knows and falls back to English', async () => {
    const spanish = await chatWith({ AIResponseLanguage: 'Spanish' });
    expect((await ask({ sessionID: spanish.sessionID, content: 'houses in Austin' })).body.Data!.content).toMatch(
      /^Encontré 1 propiedad/,
    );
    const klingon = await chatWith({ AIResponseLanguage: 'Klingon' });
    expect((await ask({ sessionID: klingon.sessionID, content: 'houses in Austin' })).body.Data!.content).toMatch(
      /^I found 1 listing/,
    );
  });

  it('appends the AnswerSuffix', async () => {
    const { sessionID } = await chatWith({ AnswerSuffix: 'Call us: 555-0100' });
    expect((await ask({ sessionID, content: 'hi' })).body.Data!.content).toMatch(/\n\nCall us: 555-0100$/);
  });

  it('keeps each question and answer in the session history', async () => {
    const { sessionID } = await chatWith();
    await ask({ sessionID, content: 'homes in Austin' });
    const history = await service.state.listRange(svcKeys.history(sessionID), 0, -1);
    expect(history.map((entry) => JSON.parse(entry) as { role: string })).toMatchObject([
      { role: 'user', content: 'homes in Austin' },
      { role: 'assistant' },
    ]);
  });
});

describe('ClientAsk, streamed', () => {
  it('sends SSE content fragments, then a final object whose Answer is the fragments joined, suffix included', async () => {
    const { sessionID } = await chatWith({ AnswerSuffix: '— Oakridge' });
    const response = await askStream({ sessionID, content: 'homes for sale in Austin' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(response);
    const final = events.at(-1)!;
    const fragments = events.slice(0, -1).map((event) => event.content as string);
    expect(fragments.length).toBeGreaterThan(2);
    expect(fragments.at(-1)).toBe('\n\n— Oakridge');
    expect(fragments.join('')).toBe(final.Answer);
    expect(final).toMatchObject({ noAnswer: false, AnswerID: (final.QuestionID as number) + 1 });
    expect(final.TotalToken).toBeGreaterThan(0);
  });

  it('answers a refused streamed ask with a JSON envelope, not a stream', async () => {
    const response = await askStream({ sessionID: 987654321, content: 'hi' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ Success: false, Code: 404 });
  });
});

describe('ClientAsk input rules', () => {
  it.each([
    [{}, 'sessionID is required.'],
    [{ sessionID: '12', content: 'hi' }, 'sessionID must be a number.'],
    [{ sessionID: 1.5, content: 'hi' }, 'sessionID must be a whole number.'],
    [{ sessionID: 1 }, 'content is required.'],
    [{ sessionID: 1, content: '   ' }, 'content must not be empty when chatAskType is Text.'],
    [
      { sessionID: 1, content: 'hi', chatAskType: 'Document' },
      'chatAskType must be one of "Text", "Audio", "Image", "Video".',
    ],
    [{ sessionID: 1, content: 'hi', stream: 'yes' }, 'stream must be true or false.'],
    [
      { sessionID: 1, content: 'hi', fileIds: [1] },
      'fileIds is only accepted when chatAskType is Image, Video or Audio; send chatAskType with the files.',
    ],
    [
      { sessionID: 1, content: '', chatAskType: 'Image' },
      "fileIds must hold the uploaded file's id when chatAskType is Image.",
    ],
    [{ sessionID: 1, content: '', chatAskType: 'Image', fileIds: ['1'] }, 'fileIds[0] must be a number.'],
    [
      { sessionID: 1, content: '', chatAskType: 'Image', fileIds: Array.from({ length: 11 }, (_, i) => i + 1) },
      'fileIds holds 11 files; chatAskType Image accepts at most 10.',
    ],
    [
      { sessionID: 1, content: '', chatAskType: 'Video', fileIds: [1, 2] },
      'fileIds must hold exactly one file when chatAskType is Video (it holds 2).',
    ],
    [
      { sessionID: 1, content: '', chatAskType: 'Audio', fileIds: [1, 2] },
      'fileIds must hold exactly one file when chatAskType is Audio (it holds 2).',
    ],
    // The spec: content is required; it "may be empty" (not absent) in Image, Audio and Video mode.
    [{ sessionID: 1, chatAskType: 'Image', fileIds: [1] }, 'content is required.'],
  ])('refuses %j with 400: %s', async (body, message) => {
    const reply = await ask(body);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ Success: false, Code: 400, Message: message });
  });

  it('treats chatAskType null as Text', async () => {
    const { sessionID } = await chatWith();
    expect((await ask({ sessionID, content: 'hi', chatAskType: null })).status).toBe(200);
  });

  it('answers an unknown session with 404', async () => {
    const reply = await ask({ sessionID: 123456789, content: 'hi' });
    expect(reply.body).toMatchObject({
      Code: 404,
      Message:
        'No chat session has the sessionID 123456789 (it may have expired); create one with /chat/Chatbot/GetSession.',
    });
  });
});

describe('RateLimitCount / RateLimitTime / RateLimitMessage', () => {
  it("refuses the message past the window count with 429 and the chatbot's RateLimitMessage, per session", async () => {
    const { serialNumber, sessionID } = await chatWith({
      RateLimitCount: 2,
      RateLimitTime: 3600,
      RateLimitMessage: 'Slow down, please.',
    });
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(200);
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(200);
    const limited = await ask({ sessionID, content: 'hi' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ Success: false, Code: 429, Message: 'Slow down, please.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const otherSession = await service.newSession(serialNumber);
    expect((await ask({ sessionID: otherSession, content: 'hi' })).status).toBe(200);
  });

  it('explains the limit when no RateLimitMessage is set', async () => {
    const { sessionID } = await chatWith({ RateLimitCount: 1, RateLimitTime: 3600 });
    await ask({ sessionID, content: 'hi' });
    const limited = await ask({ sessionID, content: 'hi' });
    expect(limited.body.Message).toMatch(/^Too many messages: this chat allows 1 messages every 3600 seconds\./);
  });
});

describe('MessageLimit', () => {
  it('refuses messages past the monthly limit with 429, and a refused ask does not count', async () => {
    const { serialNumber, sessionID } = await chatWith({ MessageLimit: 2 });
    expect((await ask({ sessionID, content: 'hi', fileIds: [1] })).status).toBe(400);
    expect((await ask({ sessionID: 999999999, content: 'hi' })).status).toBe(404);
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(200);
    const otherSession = await service.newSession(serialNumber);
    expect((await ask({ sessionID: otherSession, content: 'hi' })).status).toBe(200);
    const capped = await ask({ sessionID, content: 'hi' });
    expect(capped.status).toBe(429);
    expect(capped.body.Message).toBe(
      'This chatbot has used its 2 messages for this month; it can answer again on the 1st of next month (UTC), or its owner can raise MessageLimit.',
    );
  });

  it('lets a raised limit answer again, and -1 means unlimited', async () => {
    const { serialNumber, sessionID } = await chatWith({ MessageLimit: 0 });
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(429);
    await service.call('/chat/Chatbot/Edit', { serialNumber, MessageLimit: -1 });
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(200);
  });
});
