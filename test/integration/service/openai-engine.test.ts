import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../fakes/openai/server.js';
import { media } from './media-fixtures.js';
import { readSse, SECRET, startTestService, type TestService } from './harness.js';

let fake: FakeOpenAi;
let service: TestService;

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-fake' });
  service = await startTestService({
    engine: { kind: 'openai', baseUrl: fake.baseUrl, apiKey: 'sk-fake', model: 'gpt-4o-mini', extraModels: ['gpt-4o'] },
  });
});
afterAll(async () => {
  await service.close();
  await fake.close();
});

const ask = (body: Record<string, unknown>) =>
  service.call<{ content: string; totalToken: number; noAnswer: boolean }>('/chat/Chat/ClientAsk', body);

describe('the openai engine', () => {
  it('lists the configured models in ModelList', async () => {
    const reply = await service.call('/chat/Chatbot/ModelList', undefined, { method: 'GET' });
    expect(reply.body.Data).toEqual([
      { Key: '1', Value: 'gpt-4o-mini', Status: true },
      { Key: '2', Value: 'gpt-4o', Status: true },
    ]);
  });

  it("sends the SystemMessage, language, Temperature, chosen model and listings, and returns the model's answer and usage", async () => {
    const serialNumber = await service.newChatbot({
      SystemMessage: 'You are Ada.',
      AIResponseLanguage: 'French',
      Temperature: 1,
      Model: '2',
    });
    await service.createListing(serialNumber, { City: 'Austin', MLSNumber: 'TX-77' });
    const sessionID = await service.newSession(serialNumber);
    const reply = await ask({ sessionID, content: 'homes in Austin?' });
    expect(reply.body.Data).toMatchObject({
      content: 'Fake reply to: homes in Austin?',
      totalToken: 42,
      noAnswer: false,
    });

    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-fake');
    expect(sent.body).toMatchObject({ model: 'gpt-4o', temperature: 1, stream: true });
    const system = sent.body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are Ada.');
    expect(system.content).toContain('Always answer in French.');
    expect(system.content).toContain('MLS TX-77');
  });

  it('sends the session history on the next question', async () => {
    const sessionID = await service.newSession(await service.newChatbot());
    await ask({ sessionID, content: 'first question' });
    await ask({ sessionID, content: 'second question' });
    const messages = fake.requests.at(-1)!.body.messages;
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'Fake reply to: first question' },
      { role: 'user', content: 'second question' },
    ]);
  });

  it("streams the model's fragments, then the suffix, and the final Answer is them joined", async () => {
    fake.reply(['Hel', 'lo ', 'world.']);
    try {
      const sessionID = await service.newSession(await service.newChatbot({ AnswerSuffix: '(AI)' }));
      const response = await fetch(`${service.url}/chat/Chat/ClientAsk`, {
        method: 'POST',
        headers: { authorization: SECRET, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionID, content: 'hi', stream: true }),
      });
      const events = await readSse(response);
      expect(events.slice(0, -1).map((event) => event.content)).toEqual(['Hel', 'lo ', 'world.', '\n\n(AI)']);
      expect(events.at(-1)).toMatchObject({ Answer: 'Hello world.\n\n(AI)', TotalToken: 42, noAnswer: false });
    } finally {
      fake.reply(null);
    }
  });

  it('sends images as data URLs', async () => {
    const sessionID = await service.newSession(await service.newChatbot());
    const fileId = await service.upload(media.png(), 'house.png');
    await ask({ sessionID, content: 'what is this?', chatAskType: 'Image', fileIds: [fileId] });
    const content = fake.requests.at(-1)!.body.messages.at(-1)!.content;
    expect(content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${media.png().toString('base64')}` } },
    ]);
  });

  it('reports a failing model endpoint as 502 and does not count the message', async () => {
    const serialNumber = await service.newChatbot({ MessageLimit: 1 });
    const sessionID = await service.newSession(serialNumber);
    fake.failNext(500, 'model overloaded');
    const failed = await ask({ sessionID, content: 'hi' });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ Success: false, Code: 502 });
    expect(failed.body.Message).toContain('model overloaded');
    expect((await ask({ sessionID, content: 'hi' })).status).toBe(200);
  });
});
