import { join } from 'node:path';
import type { FakeWhatsApp } from '../../fakes/whatsapp/index.js';
import { startChatbridge, type ChatbridgeProcess } from './chatbridge-process.js';

const REGISTER = join(import.meta.dirname, '../../fakes/whatsapp/register.mjs');

/**
 * `chatbridge start` with WHATSAPP_ENABLED, whatsapp-web.js swapped for the fake by its module
 * hook (fakes/whatsapp/register.mjs), and the number linked by scanning the QR. `env` adds the
 * test's settings.
 */
export async function startLinkedWhatsAppGateway(
  fake: FakeWhatsApp,
  env: Record<string, string> = {},
): Promise<ChatbridgeProcess> {
  const gateway = await startChatbridge({
    WHATSAPP_ENABLED: 'true',
    // The fake library only checks that the browser exists.
    CHROMIUM_PATH: process.execPath,
    FAKE_WHATSAPP_URL: fake.url,
    NODE_OPTIONS: `--import ${REGISTER}`,
    ...env,
  });
  await fake.waitFor(() => fake.clients().some((client) => client.state === 'waiting-for-qr'), {
    timeoutMs: 20_000,
    what: 'a QR to scan',
  });
  fake.scanQr();
  await fake.waitFor(() => gateway.log().includes('WhatsApp is linked and ready'), {
    timeoutMs: 20_000,
    what: 'the gateway saying the number is linked',
  });
  return gateway;
}
