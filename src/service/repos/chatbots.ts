import { randomBytes } from 'node:crypto';
import type { StateStore } from '../../state/types.js';
import { notFound } from '../envelope.js';
import { svcKeys } from '../state-keys.js';
import { defaultSettings, type ChatbotSettings } from '../validation/settings.js';

export interface ChatbotRecord {
  serialNumber: string;
  type: number;
  createdAt: string;
  settings: ChatbotSettings;
}

export class ChatbotRepository {
  constructor(private readonly state: StateStore) {}

  async find(serialNumber: string): Promise<ChatbotRecord | null> {
    const raw = await this.state.get(svcKeys.chatbot(serialNumber));
    if (raw === null) return null;
    const record = JSON.parse(raw) as ChatbotRecord;
    // Settings added in later versions get their defaults on read.
    record.settings = { ...defaultSettings(record.settings.TimeZone), ...record.settings };
    return record;
  }

  async get(serialNumber: string, field = 'SerialNumber'): Promise<ChatbotRecord> {
    const record = await this.find(serialNumber);
    if (!record)
      throw notFound(
        `No chatbot has the ${field} "${serialNumber}"; create one with /chat/Chatbot/Add or check the id.`,
      );
    return record;
  }

  async create(options: {
    timeZone?: string;
    type: number;
    serialNumber?: string;
    settings?: Partial<ChatbotSettings>;
  }): Promise<ChatbotRecord> {
    const serialNumber = options.serialNumber ?? randomBytes(16).toString('hex');
    const record: ChatbotRecord = {
      serialNumber,
      type: options.type,
      createdAt: new Date().toISOString(),
      settings: { ...defaultSettings(options.timeZone), ...options.settings },
    };
    await this.state.set(svcKeys.chatbot(serialNumber), JSON.stringify(record));
    return record;
  }

  /**
   * Read-modify-write. Two Edits of one chatbot at the same instant could lose
   * one's fields; Edit is an owner's admin action, so that race is accepted.
   */
  async update(serialNumber: string, changes: Partial<ChatbotSettings>): Promise<ChatbotRecord> {
    const record = await this.get(serialNumber, 'serialNumber');
    record.settings = { ...record.settings, ...changes };
    await this.state.set(svcKeys.chatbot(serialNumber), JSON.stringify(record));
    return record;
  }

  /**
   * Removes the chatbot and its listings in one step (the three keys share the chatbot's
   * hash tag); sessions and files age out on their own.
   */
  async remove(serialNumber: string): Promise<boolean> {
    const [removed] = await this.state.atomic([
      { op: 'del', key: svcKeys.chatbot(serialNumber) },
      { op: 'del', key: svcKeys.listings(serialNumber) },
      { op: 'del', key: svcKeys.listingsVersion(serialNumber) },
    ]);
    return Number(removed) > 0;
  }
}
