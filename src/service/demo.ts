import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import type { StateStore } from '../state/types.js';
import { migrateLegacyServiceKeys } from './legacy-keys.js';
import { ChatbotRepository } from './repos/chatbots.js';
import { ListingRepository } from './repos/listings.js';
import { listingCreateSchema } from './validation/listing.js';
import { defaultSettings, settingsSchema, type ChatbotSettings } from './validation/settings.js';

/** The demo chatbot's fixed serial number, so a fresh `npm start` always talks to the same bot. */
export const DEMO_SERIAL_NUMBER = 'de300000000000000000000000000001';

const demoChatbotSchema = z.object({ settings: settingsSchema.partial() });
const demoListingsSchema = z.object({ listings: z.array(listingCreateSchema.omit({ SerialNumber: true })) });

/** config/demo, found by walking up from this file (works from src/ and from a build in dist/). */
function demoDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'config', 'demo');
    if (existsSync(join(candidate, 'chatbot.yaml'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(
    'config/demo/chatbot.yaml was not found above src/service; reinstall chatbridge or start without seedDemo.',
  );
}

function readYaml<T>(schema: z.ZodType<T>, file: string): T {
  const result = schema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!result.success)
    throw new Error(
      `${file} is not valid: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return result.data;
}

/** Settings given in the gateway's configuration (`bots[].settings`), checked like an Edit's. */
function configuredSettings(configured: Record<string, unknown>): Partial<ChatbotSettings> {
  const result = settingsSchema.partial().strict().safeParse(configured);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? `${issue.keys.join(', ')}: not a chatbot setting`
      : `${issue.path.join('.')}: ${issue.message}`,
  );
  throw new Error(
    `bots[].settings of the embedded demo chatbot is not valid (${problems.join('; ')}); use the names and values of /chat/Chatbot/Edit.`,
  );
}

/**
 * Creates the demo chatbot and its listings from config/demo. Idempotent: an
 * existing demo chatbot keeps its (possibly edited) settings, and a listing is
 * only added when no listing of the demo bot has its MLS number. `settings`
 * (the configuration's `bots[].settings`) go over config/demo's when the chatbot
 * is created: the service's record is then the one place the settings live.
 */
export async function seedDemoData(
  state: StateStore,
  options: { settings?: Record<string, unknown> } = {},
): Promise<{ serialNumber: string; createdChatbot: boolean; addedListings: number }> {
  const dir = demoDirectory();
  const overrides = configuredSettings(options.settings ?? {});
  const settings = { ...readYaml(demoChatbotSchema, join(dir, 'chatbot.yaml')).settings, ...overrides };
  const { listings } = readYaml(demoListingsSchema, join(dir, 'listings.yaml'));
  const chatbots = new ChatbotRepository(state);
  const repository = new ListingRepository(state);
  // A demo chatbot kept under the old key layout is the one to keep (owner's edits, listing ids).
  await migrateLegacyServiceKeys(state);

  const createdChatbot = !(await chatbots.find(DEMO_SERIAL_NUMBER));
  if (createdChatbot) await chatbots.create({ serialNumber: DEMO_SERIAL_NUMBER, type: 0, settings });
  const existing = new Set((await repository.all(DEMO_SERIAL_NUMBER)).map((listing) => listing.MLSNumber));
  let addedListings = 0;
  for (const listing of listings) {
    if (existing.has(listing.MLSNumber)) continue;
    await repository.create({ SerialNumber: DEMO_SERIAL_NUMBER, ...listing });
    addedListings += 1;
  }
  return { serialNumber: DEMO_SERIAL_NUMBER, createdChatbot, addedListings };
}

/** The demo chatbot's settings as shipped, for the gateway's settings mirror (the API cannot read them back). */
export function demoChatbotSettings(): z.infer<typeof demoChatbotSchema>['settings'] {
  return readYaml(demoChatbotSchema, join(demoDirectory(), 'chatbot.yaml')).settings;
}

/**
 * A chatbot's effective settings as the embedded service holds them (its defaults
 * filled in), or null when it has no such chatbot. The composition root hands this
 * to the gateway, so that the gateway acts on the service's own settings.
 */
export function embeddedSettingsReader(state: StateStore): (serialNumber: string) => Promise<ChatbotSettings | null> {
  const chatbots = new ChatbotRepository(state);
  return async (serialNumber) => (await chatbots.find(serialNumber))?.settings ?? null;
}

/**
 * The service's defaults of the settings the gateway acts on, for a hosted
 * chatbot whose settings the gateway's copy does not know (docs/ documents them).
 */
export function serviceSettingDefaults(): Pick<
  ChatbotSettings,
  'EnableUploadImage' | 'EnablePushToTalk' | 'MessageLimit' | 'RateLimitCount' | 'RateLimitTime'
> {
  const { EnableUploadImage, EnablePushToTalk, MessageLimit, RateLimitCount, RateLimitTime } = defaultSettings();
  return { EnableUploadImage, EnablePushToTalk, MessageLimit, RateLimitCount, RateLimitTime };
}
