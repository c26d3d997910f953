/**
 * The mirror of each chatbot's settings. The Chatbot Service has no operation
 * that reads them back, so the gateway keeps what it last wrote (or was seeded
 * with from the configuration) under `settings:<serialNumber>`: a hash with one
 * field per setting, so that two concurrent merges of different fields both land
 * (no read-modify-write). Whoever calls Edit calls `merge` with the same fields.
 *
 * Two things keep the copy from disagreeing with the service:
 * - a chatbot whose settings can be read where they live (the embedded service,
 *   wired by the composition root with `readFrom`) is read there, not copied;
 * - a setting the copy does not know takes the service's documented default
 *   (`withDefaults`), not "off".
 */
import type { ChatbotSettings } from '../../upstream/api.js';
import type { StateStore } from '../../state/index.js';
import { gatewayKeys } from '../state-keys.js';

/** Reads a chatbot's effective settings where they live; null when it has none (removed). */
export type SettingsSource = (serialNumber: string) => Promise<ChatbotSettings | null>;

export class ChatbotSettingsMirror {
  private readonly sources = new Map<string, SettingsSource>();
  private defaults: ChatbotSettings = {};
  private readonly cache = new Map<string, { settings: ChatbotSettings; until: number }>();
  private readonly reading = new Map<string, Promise<ChatbotSettings>>();
  /** Bumped by every local merge. */
  private generation = 0;

  constructor(
    private readonly state: StateStore,
    /** In-process cache lifetime; another process's merge is seen after at most this long. */
    private readonly cacheMs: number,
  ) {}

  /** The settings a chatbot has when the copy does not say (the service's documented defaults). */
  withDefaults(defaults: ChatbotSettings): this {
    this.defaults = { ...defaults };
    this.cache.clear();
    return this;
  }

  /**
   * Reads this chatbot's settings from `source` instead of the copy (the embedded
   * service's own record: no copy that can drift). The copy is still read when the
   * source has no record of the chatbot.
   */
  readFrom(serialNumber: string, source: SettingsSource): this {
    this.sources.set(serialNumber, source);
    this.cache.delete(serialNumber);
    return this;
  }

  /** The chatbot's settings: from its source, else the copy over the defaults; an empty object when none are known. */
  async get(serialNumber: string): Promise<ChatbotSettings> {
    const cached = this.cache.get(serialNumber);
    if (cached && cached.until > Date.now()) return cached.settings;
    // Turns that miss the cache together share one read instead of each reading Redis.
    let pending = this.reading.get(serialNumber);
    if (!pending) {
      const generation = this.generation;
      pending = this.read(serialNumber).finally(() => this.reading.delete(serialNumber));
      this.reading.set(serialNumber, pending);
      const settings = await pending;
      // A merge while reading made this read stale: do not cache it.
      if (generation === this.generation) this.cache.set(serialNumber, { settings, until: Date.now() + this.cacheMs });
      return settings;
    }
    return pending;
  }

  /**
   * The chatbot's settings read now, leaving the cache as it is. The cache is the turns': a reader outside them (the
   * digests' minute check, which looks as a process starts; the inbox's pages) would otherwise hold an edit made just
   * after its read away from the next turns for the cache's lifetime.
   */
  fresh(serialNumber: string): Promise<ChatbotSettings> {
    return this.read(serialNumber);
  }

  private async read(serialNumber: string): Promise<ChatbotSettings> {
    const fromSource = await this.sources.get(serialNumber)?.(serialNumber);
    if (fromSource) return fromSource;
    return { ...this.defaults, ...decode(await this.state.hashGetAll(gatewayKeys.settings(serialNumber))) };
  }

  /** Records the fields an Edit just changed; returns the merged settings. */
  async merge(serialNumber: string, partial: ChatbotSettings): Promise<ChatbotSettings> {
    const fields = encode(partial);
    if (Object.keys(fields).length > 0) await this.state.hashSet(gatewayKeys.settings(serialNumber), fields);
    this.cache.delete(serialNumber);
    this.reading.delete(serialNumber);
    this.generation++;
    return this.get(serialNumber);
  }

  /** Writes the configured settings when the mirror holds none yet (first start). True when seeded. */
  async seed(serialNumber: string, settings: ChatbotSettings): Promise<boolean> {
    const key = gatewayKeys.settings(serialNumber);
    const fields = encode(settings);
    if (Object.keys(fields).length === 0) return false;
    // Two processes seeding at once write the same configured values, so check-then-set is harmless here.
    if (Object.keys(await this.state.hashGetAll(key)).length > 0) return false;
    await this.state.hashSet(key, fields);
    this.cache.delete(serialNumber);
    return true;
  }
}

function encode(settings: ChatbotSettings): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) fields[name] = JSON.stringify(value);
  return fields;
}

function decode(fields: Record<string, string>): ChatbotSettings {
  const settings: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    try {
      settings[name] = JSON.parse(raw);
    } catch {
      settings[name] = raw;
    }
  }
  return settings as ChatbotSettings;
}
