/**
 * A day of a real-estate chatbot for the digests' door tests: Ana writes her phone number and e-mail address, Bruno
 * asks for a person, Carla only says hello. All three are in the day's chat logs; Ana and Bruno are its leads.
 */
import type { ConversationRef, Inbound } from '../../../../src/contract.js';
import type { Gateway } from '../../../../src/gateway/index.js';
import type { ChatbotSettings } from '../../../../src/upstream/api.js';
import { eventually } from '../../../unit/gateway/support/recording-adapter.js';
import { HANDOFF_SETTINGS } from '../stack.js';

export const LEADS_EMAIL = 'leads@oakridge.example';
export const LOGS_EMAIL = 'logs@oakridge.example';
export const ANA_PHONE = '+1 512 555 0142';
/** Her number as the leads give it (E.164). */
export const ANA_PHONE_E164 = '+15125550142';
export const ANA_EMAIL = 'ana.lima@example.com';

/** The handoff's settings with both digests' addresses; no TimeZone: the day is UTC's. */
export const DIGEST_SETTINGS: ChatbotSettings = {
  ...HANDOFF_SETTINGS,
  EmailForDailyLeads: LEADS_EMAIL,
  EmailForDailyChatLogs: LOGS_EMAIL,
};

export const ana = { user: { id: 'u-ana', name: 'Ana Lima', handle: 'analima' } };
export const bruno = { user: { id: 'u-bruno', name: 'Bruno Costa' } };
export const carla = { user: { id: 'u-carla', name: 'Carla Dias' } };

/** Whoever delivers a user's message, and names their conversation: the recording adapter, the memory platform. */
export interface Chat {
  say(id: string, text: string, extra: Partial<Inbound>): Promise<unknown>;
  conversation(id: string): ConversationRef;
}

/**
 * The day's three conversations (`ana`, `bruno`, `carla`), each message answered before the next is sent, so
 * that the transcripts hold them all when the test looks.
 */
export async function aDayOfLeads(gateway: Gateway, chat: Chat, ids = { ana: 'ana', bruno: 'bruno', carla: 'carla' }) {
  const say = async (id: string, text: string, who: Partial<Inbound>) => {
    await chat.say(id, text, who);
    await eventually(async () => {
      if (!(await gateway.answered(chat.conversation(id)))) throw new Error(`"${text}" is not answered yet`);
    });
  };
  await say(ids.ana, 'Hello, I am looking for a house', ana);
  await say(ids.ana, `Please call me on ${ANA_PHONE} or write to ${ANA_EMAIL}`, ana);
  await say(ids.bruno, '/human', bruno);
  await say(ids.carla, 'Hello', carla);
}
