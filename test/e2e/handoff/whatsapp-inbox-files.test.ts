/**
 * A file a WhatsApp Web user sent opens from the inbox later, as on the other platforms: `chatbridge start` as a
 * process with WHATSAPP_ENABLED (whatsapp-web.js swapped for the fake), ADMIN_TOKEN and the embedded demo chatbot.
 * The user sends a photo and a document, then asks for a person; the operator signs in to the inbox over HTTP and
 * opens both through the gateway, which finds the message again in WhatsApp Web by the file's ref (its id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../fakes/whatsapp/index.js';
import type { ChatbridgeProcess } from '../../support/chatbridge-process.js';
import { startLinkedWhatsAppGateway } from '../../support/whatsapp-process.js';

const ADMIN_TOKEN = 'e2e-whatsapp-inbox-files-token';
const HANDOFF_REPLY =
  "I've asked one of our agents to join this chat. They usually reply within an hour during business hours.";
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe("chatbridge start with WhatsApp: the user's files in the inbox", () => {
  let fake: FakeWhatsApp;
  let gateway: ChatbridgeProcess;
  let base: string;

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    gateway = await startLinkedWhatsAppGateway(fake, { ADMIN_TOKEN });
    base = `http://127.0.0.1:${gateway.port}`;
  }, 60_000);

  afterAll(async () => {
    await gateway?.cleanup();
    await fake?.close();
  });

  it('opens a photo and a document the user sent before asking for a person', async () => {
    const chat = '4915100000301@c.us';
    fake.userSends({
      from: '4915100000301',
      name: 'Ana Lima',
      text: 'This kitchen',
      media: { bytes: PNG, mimetype: 'image/png', filename: 'kitchen.png' },
    });
    fake.userSends({
      from: '4915100000301',
      name: 'Ana Lima',
      media: { bytes: PDF, mimetype: 'application/pdf', filename: 'offer.pdf' },
    });
    fake.userSends({ from: '4915100000301', name: 'Ana Lima', text: 'human' });
    await fake.waitFor(() => fake.screen(chat).some((shown) => shown.includes(HANDOFF_REPLY)), {
      timeoutMs: 45_000,
      what: 'the handoff reply',
    });

    const signIn = await fetch(`${base}/inbox/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ADMIN_TOKEN, name: 'Bruno' }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const page = await fetch(`${base}/inbox/conversations/${encodeURIComponent(`main:whatsapp:${chat}`)}`, {
      headers: { cookie },
    });
    const html = await page.text();
    expect(html).not.toContain('the platform keeps no copy');
    const files = [
      ...new Set([...html.matchAll(/"(\/inbox\/conversations\/[^"]+\/files\/\d+\/\d+)"/g)].map((match) => match[1]!)),
    ];
    expect(files).toHaveLength(2);

    const opened = await Promise.all(files.map((path) => fetch(`${base}${path}`, { headers: { cookie } })));
    expect(opened.map((response) => response.status)).toEqual([200, 200]);
    const byType = new Map(
      await Promise.all(
        opened.map(
          async (response) =>
            [response.headers.get('content-type'), Buffer.from(await response.arrayBuffer())] as const,
        ),
      ),
    );
    expect(byType.get('image/png')).toEqual(PNG);
    expect(byType.get('application/pdf')).toEqual(PDF);
  }, 90_000);
});
