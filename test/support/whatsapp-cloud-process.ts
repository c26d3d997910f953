/**
 * What the WhatsApp Cloud process tests share: `chatbridge start` as a process with only the
 * WHATSAPP_CLOUD_* variables pointing at the fake Cloud API (its Graph API as
 * WHATSAPP_CLOUD_API_URL), the fake posting its webhooks to the process's shared
 * /whatsapp-cloud/webhook, and readers of what the user sees and what the process reports.
 */
import {
  startFakeWhatsAppCloud,
  type FakeWhatsAppCloud,
  type FakeWhatsAppCloudOptions,
} from '../../fakes/whatsapp-cloud/index.js';
import type { ChatbridgeProcess } from './chatbridge-process.js';
import { startChatbridge } from './chatbridge-process.js';
import { startDeliveryGateway, type DeliveryGateway } from './delivery-gateway.js';

export interface CloudProcess {
  fake: FakeWhatsAppCloud;
  gateway: ChatbridgeProcess;
  base: string;
  /** The texts a user sees from the business, oldest first (a text, an interactive message's body). */
  texts(user: string): string[];
  /** GET /metrics, the lines of one metric. */
  metric(name: string): Promise<string[]>;
  close(): Promise<void>;
}

/** The variables a Cloud number needs, at this fake. */
export function cloudEnv(fake: FakeWhatsAppCloud): Record<string, string> {
  return {
    WHATSAPP_CLOUD_ACCESS_TOKEN: fake.accessToken,
    WHATSAPP_CLOUD_PHONE_NUMBER_ID: fake.phoneNumberId,
    WHATSAPP_CLOUD_APP_SECRET: fake.appSecret,
    WHATSAPP_CLOUD_VERIFY_TOKEN: fake.verifyToken,
    WHATSAPP_CLOUD_WABA_ID: fake.wabaId,
    WHATSAPP_CLOUD_API_URL: fake.apiUrl,
  };
}

function cloudProcess(fake: FakeWhatsAppCloud, gateway: ChatbridgeProcess, stop: () => Promise<void>): CloudProcess {
  const base = `http://127.0.0.1:${gateway.port}`;
  fake.setWebhook(`${base}/whatsapp-cloud/webhook`);
  return {
    fake,
    gateway,
    base,
    texts: (user) => fake.visibleMessages(user).map((message) => message.text ?? ''),
    async metric(name) {
      const body = await (await fetch(`${base}/metrics`)).text();
      return body.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
    },
    async close() {
      await stop();
      await fake.close();
    },
  };
}

/** On the default set-up: the embedded demo chatbot (config/demo), with `env` added (ADMIN_TOKEN, SMTP_URL…). */
export async function startCloudGateway(
  options: { fake?: FakeWhatsAppCloudOptions; env?: Record<string, string> } = {},
): Promise<CloudProcess> {
  const fake = await startFakeWhatsAppCloud(options.fake);
  const gateway = await startChatbridge({ ...cloudEnv(fake), ...options.env }).catch(async (error: unknown) => {
    await fake.close();
    throw error;
  });
  return cloudProcess(fake, gateway, () => gateway.cleanup());
}

/** Against a hosted Chatbot Service at `upstreamUrl` (a scripted one), with `gateway:` settings. */
export async function startCloudDeliveryGateway(options: {
  upstreamUrl: string;
  fake?: FakeWhatsAppCloudOptions;
  gateway?: Record<string, number>;
}): Promise<CloudProcess & { delivery: DeliveryGateway }> {
  const fake = await startFakeWhatsAppCloud(options.fake);
  const delivery = await startDeliveryGateway({
    env: cloudEnv(fake),
    upstreamUrl: options.upstreamUrl,
    ...(options.gateway ? { gateway: options.gateway } : {}),
  }).catch(async (error: unknown) => {
    await fake.close();
    throw error;
  });
  return { ...cloudProcess(fake, delivery.process, () => delivery.cleanup()), delivery };
}
