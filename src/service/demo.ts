import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import type { StateStore } from '../state/types.js';
import { ChatbotRepository } from './repos/chatbots.js';
import { ListingRepository } from './repos/listings.js';
import { listingCreateSchema } from './validation/listing.js';
import { settingsSchema } from './validation/settings.js';

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
  throw new Error('config/demo/chatbot.yaml was not found above src/service; reinstall chatbridge or start without seedDemo.');
}

function readYaml<T>(schema: z.ZodType<T>, file: string): T {
  const result = schema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!result.success) throw new Error(`${file} is not valid: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return result.data;
}

/**
 * Creates the demo chatbot and its listings from config/demo. Idempotent: an
 * existing demo chatbot keeps its (possibly edited) settings, and a listing is
 * only added when no listing of the demo bot has its MLS number.
 */
export async function seedDemoData(state: StateStore): Promise<{ serialNumber: string; createdChatbot: boolean; addedListings: number }> {
  const dir = demoDirectory();
  const { settings } = readYaml(demoChatbotSchema, join(dir, 'chatbot.yaml'));
  const { listings } = readYaml(demoListingsSchema, join(dir, 'listings.yaml'));
  const chatbots = new ChatbotRepository(state);
  const repository = new ListingRepository(state);

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
