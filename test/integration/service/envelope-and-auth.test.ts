import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, SECRET, SESSION_KEY, startTestService, type TestService } from './harness.js';

let service: TestService;
let serialNumber: string;

beforeAll(async () => {
  service = await startTestService();
  serialNumber = await service.newChatbot();
});
afterAll(() => service.close());

describe('the response envelope', () => {
  it('wraps a success as Data, Version 1.0.0, Success true, Code 200 and an empty Message', async () => {
    const reply = await service.call('/chat/Chatbot/ModelList', undefined, { method: 'GET' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ Version: '1.0.0', Success: true, Code: 200, Message: '' });
    expect(Array.isArray(reply.body.Data)).toBe(true);
  });

  it('answers an unknown /chat path with a 404 envelope', async () => {
    const reply = await service.call('/chat/Chatbot/DoesNotExist', {});
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ Success: false, Code: 404, Version: '1.0.0' });
    expect(reply.body.Message).toContain('/chat/Chatbot/DoesNotExist');
  });

  it('answers a path outside /chat with a 404 envelope too', async () => {
    const response = await fetch(`${service.url}/favicon.ico`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ Success: false, Code: 404 });
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const reply = await service.call('/chat/Chatbot/Edit', undefined, { rawBody: '{"serialNumber": ' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      Success: false,
      Code: 400,
      Message: 'The request body is not valid JSON; send a JSON object.',
    });
  });

  it('refuses a JSON body that is not an object', async () => {
    const reply = await service.call('/chat/Chatbot/Edit', [1, 2]);
    expect(reply.body).toMatchObject({ Code: 400, Message: 'The request body must be a JSON object.' });
  });

  it('answers a wrong method with a 405 envelope naming the right one', async () => {
    const reply = await service.call('/chat/Chatbot/Edit', undefined, { method: 'GET' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('POST');
    expect(reply.body).toMatchObject({
      Success: false,
      Code: 405,
      Message: 'GET is not allowed on /chat/Chatbot/Edit; use POST.',
    });
  });

  it('answers an oversized JSON body with a 413 envelope', async () => {
    const reply = await service.call('/chat/Chatbot/Edit', { serialNumber, Name: 'x'.repeat(2 * 1024 * 1024) });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ Success: false, Code: 413 });
  });
});

describe('authentication (spec rules 1–3)', () => {
  const secretOnly = [
    '/chat/Chatbot/Edit',
    '/chat/Chat/ClientAsk',
    '/chat/Chatbot/GetSession',
    '/chat/Chatbot/Add',
    '/chat/Chatbot/Remove',
    '/chat/User/GetPreUploadUrl',
    '/chat/User/ConfirmUpload',
  ];

  it.each(secretOnly)('%s refuses a request without Authorization', async (path) => {
    const reply = await service.call(path, { serialNumber }, { auth: 'none' });
    expect(reply.status).toBe(401);
    expect(reply.body.Message).toBe(
      'Missing Authorization header: send the secret key as "Authorization: <SECRET_KEY>".',
    );
  });

  it.each(secretOnly)('%s refuses the session key in place of the secret key', async (path) => {
    const reply = await service.call(path, { serialNumber }, { auth: { authorization: SESSION_KEY } });
    expect(reply.status).toBe(401);
    expect(reply.body.Message).toContain('does not match the secret key');
  });

  it('ModelList needs the secret key', async () => {
    expect((await service.call('/chat/Chatbot/ModelList', undefined, { method: 'GET', auth: 'none' })).status).toBe(
      401,
    );
  });

  it('RealEstateList needs chatrobot-sessionkey and refuses the secret key alone', async () => {
    const withSecret = await service.call(
      '/chat/Chatbot/RealEstateList',
      { SerialNumber: serialNumber },
      { auth: 'secret' },
    );
    expect(withSecret.status).toBe(401);
    expect(withSecret.body.Message).toContain('chatrobot-sessionkey');
    const withSession = await service.call(
      '/chat/Chatbot/RealEstateList',
      { SerialNumber: serialNumber },
      { auth: 'session' },
    );
    expect(withSession.status).toBe(200);
  });

  it('RealEstateCreate and RealEstateDelete accept either key, and refuse neither', async () => {
    for (const auth of ['secret', 'session'] as const) {
      const created = await service.call(
        '/chat/Chatbot/RealEstateCreate',
        listing(serialNumber, { MLSNumber: `AUTH-${auth}` }),
        { auth },
      );
      expect(created.status).toBe(200);
      const deleted = await service.call(
        '/chat/Chatbot/RealEstateDelete',
        { SerialNumber: serialNumber, Keys: [created.body.Data], KeyType: 'NewOaks' },
        { auth },
      );
      expect(deleted.body.Data).toEqual({ SuccessCount: 1 });
    }
    const refused = await service.call('/chat/Chatbot/RealEstateCreate', listing(serialNumber), {
      auth: { 'chatrobot-sessionkey': 'wrong' },
    });
    expect(refused.status).toBe(401);
  });

  it('Edit and ClientAsk require Content-Type: application/json (rule 1); List reads a body sent without one', async () => {
    for (const path of ['/chat/Chatbot/Edit', '/chat/Chat/ClientAsk']) {
      const response = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { authorization: SECRET, 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({
        Success: false,
        Code: 415,
        Message: `${path} requires the header "Content-Type: application/json".`,
      });
    }
    const list = await fetch(`${service.url}/chat/Chatbot/RealEstateList`, {
      method: 'POST',
      headers: { 'chatrobot-sessionkey': SESSION_KEY },
      body: JSON.stringify({ SerialNumber: serialNumber }),
    });
    expect(list.status).toBe(200);
  });

  it('tolerates a "Bearer " prefix on the secret key', async () => {
    const reply = await service.call(
      '/chat/Chatbot/GetSession',
      { serialNumber },
      { auth: { authorization: `Bearer ${SECRET}` } },
    );
    expect(reply.status).toBe(200);
  });
});

describe('case-insensitive field names', () => {
  it('binds serialnumber, SerialNumber and SERIALNUMBER alike', async () => {
    for (const name of ['serialnumber', 'SerialNumber', 'SERIALNUMBER']) {
      const reply = await service.call<{ SessionID: number }>('/chat/Chatbot/GetSession', { [name]: serialNumber });
      expect(reply.status).toBe(200);
      expect(reply.body.Data!.SessionID).toBeGreaterThan(0);
    }
  });

  it('refuses one field sent twice under two casings', async () => {
    const reply = await service.call('/chat/Chatbot/GetSession', { serialNumber, SerialNumber: serialNumber });
    expect(reply.body).toMatchObject({
      Code: 400,
      Message: 'serialNumber is given twice (as "serialNumber" and "SerialNumber"); send it once.',
    });
  });
});
