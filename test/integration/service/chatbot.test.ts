import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { SECRET, startTestService, type TestService } from './harness.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('Chatbot/Add and Chatbot/Remove', () => {
  it('creates a chatbot whose serial number is 32 hex characters', async () => {
    const reply = await service.call<string>('/chat/Chatbot/Add', { timeZone: 'Asia/Shanghai', type: 0 });
    expect(reply.body).toMatchObject({ Success: true, Code: 200 });
    expect(reply.body.Data).toMatch(/^[0-9a-f]{32}$/);
  });

  it('refuses a chatbot type other than 0 and an unknown time zone', async () => {
    expect((await service.call('/chat/Chatbot/Add', { type: 3 })).body).toMatchObject({
      Code: 400,
      Message: 'type must be 0 (a generic chatbot); no other chatbot type is offered.',
    });
    expect((await service.call('/chat/Chatbot/Add', { timeZone: 'Mars/Olympus' })).body).toMatchObject({
      Code: 400,
      Message: 'timeZone must be an IANA time zone name such as "Europe/Paris" or "UTC".',
    });
  });

  it('removes a chatbot with an envelope that has no Data, after which it is unknown', async () => {
    const serialNumber = await service.newChatbot();
    const sessionId = await service.newSession(serialNumber);
    const removed = await service.call('/chat/Chatbot/Remove', { serialNumber });
    expect(removed.body).toEqual({ Version: '1.0.0', Success: true, Code: 200, Message: '' });
    expect((await service.call('/chat/Chatbot/GetSession', { serialNumber })).status).toBe(404);
    const ask = await service.call('/chat/Chat/ClientAsk', { sessionID: sessionId, content: 'hello' });
    expect(ask.body).toMatchObject({
      Code: 404,
      Message: `The chatbot of session ${sessionId} has been removed; this session can no longer be used.`,
    });
  });

  it('answers 404 when removing an unknown chatbot', async () => {
    const reply = await service.call('/chat/Chatbot/Remove', { serialNumber: 'f'.repeat(32) });
    expect(reply.status).toBe(404);
  });
});

describe('Chatbot/GetSession', () => {
  it('returns a new integer SessionID each time', async () => {
    const serialNumber = await service.newChatbot();
    const first = await service.newSession(serialNumber);
    const second = await service.newSession(serialNumber);
    expect(Number.isInteger(first)).toBe(true);
    expect(second).not.toBe(first);
  });

  it('names the missing field and the unknown chatbot', async () => {
    expect((await service.call('/chat/Chatbot/GetSession', {})).body).toMatchObject({
      Code: 400,
      Message: 'serialNumber is required.',
    });
    const unknown = await service.call('/chat/Chatbot/GetSession', { serialNumber: 'abc' });
    expect(unknown.body).toMatchObject({
      Code: 404,
      Message: 'No chatbot has the serialNumber "abc"; create one with /chat/Chatbot/Add or check the id.',
    });
  });
});

describe('Chatbot/ModelList', () => {
  it('answers GET without a body, listing Key/Value/Status', async () => {
    const reply = await service.call('/chat/Chatbot/ModelList', undefined, { method: 'GET' });
    expect(reply.body.Data).toEqual([{ Key: '1', Value: 'builtin', Status: true }]);
  });

  it("answers GET with a JSON body, as the docs' examples send it", async () => {
    // fetch refuses a GET body; undici's request sends it.
    const raw = await request(`${service.url}/chat/Chatbot/ModelList`, {
      method: 'GET',
      headers: { authorization: SECRET, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.statusCode).toBe(200);
    expect(((await raw.body.json()) as { Data: unknown }).Data).toEqual([{ Key: '1', Value: 'builtin', Status: true }]);
  });
});

describe('Chatbot/Edit', () => {
  it('updates only the fields sent and returns Data 1', async () => {
    const serialNumber = await service.newChatbot();
    const first = await service.call('/chat/Chatbot/Edit', { serialNumber, Name: 'Ada', AnswerSuffix: '— Ada' });
    expect(first.body).toMatchObject({ Data: 1, Success: true });
    await service.call('/chat/Chatbot/Edit', { serialNumber, WelcomeMessage: 'Welcome, friend!' });
    const sessionID = await service.newSession(serialNumber);
    const ask = await service.call<{ content: string }>('/chat/Chat/ClientAsk', { sessionID, content: 'hello' });
    // The earlier Name/AnswerSuffix survived the second, partial edit.
    expect(ask.body.Data!.content).toBe('Welcome, friend!\n\n— Ada');
  });

  it.each([
    [{ Temperature: 'hot' }, 'Temperature must be a number.'],
    [{ Temperature: 1.5 }, 'Temperature must be a whole number.'],
    [{ Temperature: 7 }, 'Temperature must be at most 2.'],
    [{ ChatbotPopupOnce: 'yes' }, 'ChatbotPopupOnce must be true or false.'],
    [{ ChatBubbleColor: '#ff0000' }, 'ChatBubbleColor must be a colour like "rgb(37,99,235)" (each part 0-255).'],
    [
      { UserMessageColor: 'rgb(300,0,0)' },
      'UserMessageColor must be a colour like "rgb(37,99,235)" (each part 0-255).',
    ],
    [{ TimeZone: 'Nowhere' }, 'TimeZone must be an IANA time zone name such as "Europe/Paris" or "UTC".'],
    [{ TalkToHumanEmail: 'not-an-email' }, 'TalkToHumanEmail must be an e-mail address (or "" to clear it).'],
    [{ MessageLimit: -2 }, 'MessageLimit must be at least -1.'],
    [{ RateLimitCount: -1 }, 'RateLimitCount must be at least 0.'],
    [{ Model: '99' }, 'Model must be a Key from /chat/Chatbot/ModelList ("1").'],
    [{ Name: 42 }, 'Name must be a string.'],
  ])('refuses %j with a message naming the field', async (change, message) => {
    const serialNumber = await service.newChatbot();
    const reply = await service.call('/chat/Chatbot/Edit', { serialNumber, ...change });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ Success: false, Code: 400, Message: message });
  });

  it('refuses an Edit without serialNumber and of an unknown chatbot', async () => {
    expect((await service.call('/chat/Chatbot/Edit', { Name: 'x' })).body.Message).toBe('serialNumber is required.');
    expect((await service.call('/chat/Chatbot/Edit', { serialNumber: 'nope', Name: 'x' })).status).toBe(404);
  });

  it('leaves the settings untouched when an Edit is refused', async () => {
    const serialNumber = await service.newChatbot({ WelcomeMessage: 'Before' });
    await service.call('/chat/Chatbot/Edit', { serialNumber, WelcomeMessage: 'After', Temperature: 'bad' });
    const sessionID = await service.newSession(serialNumber);
    const ask = await service.call<{ content: string }>('/chat/Chat/ClientAsk', { sessionID, content: 'hi' });
    expect(ask.body.Data!.content).toBe('Before');
  });
});
