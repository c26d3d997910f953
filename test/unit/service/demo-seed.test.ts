import { describe, expect, it } from 'vitest';
import {
  DEMO_SERIAL_NUMBER,
  embeddedSettingsReader,
  seedDemoData,
  serviceSettingDefaults,
} from '../../../src/service/index.js';
import { MemoryStateStore } from '../../../src/state/index.js';

describe('the demo chatbot seed', () => {
  it('accepts photos and voice messages, so the demo answers media', async () => {
    const state = new MemoryStateStore();
    await seedDemoData(state);
    expect(await embeddedSettingsReader(state)(DEMO_SERIAL_NUMBER)).toMatchObject({
      EnableUploadImage: true,
      EnablePushToTalk: true,
    });
  });

  it("puts the configured settings (bots[].settings) into the service's record when it creates the chatbot, and only then", async () => {
    const state = new MemoryStateStore();
    await seedDemoData(state, { settings: { WelcomeMessage: 'Configured hello', EnablePushToTalk: false } });
    await seedDemoData(state, { settings: { WelcomeMessage: 'Later config' } });
    expect(await embeddedSettingsReader(state)(DEMO_SERIAL_NUMBER)).toMatchObject({
      WelcomeMessage: 'Configured hello',
      EnablePushToTalk: false,
      EnableUploadImage: true,
    });
  });

  it('refuses configured settings the service does not have, naming every problem', async () => {
    await expect(seedDemoData(new MemoryStateStore(), { settings: { Bogus: 1, Temperature: 'hot' } })).rejects.toThrow(
      'bots[].settings of the embedded demo chatbot is not valid ' +
        '(Temperature: Invalid input: expected number, received string; Bogus: not a chatbot setting); ' +
        'use the names and values of /chat/Chatbot/Edit.',
    );
  });

  it('reads no settings for a chatbot the service does not have', async () => {
    expect(await embeddedSettingsReader(new MemoryStateStore())('nope')).toBeNull();
  });

  it("gives a hosted copy the service's defaults of the settings the gateway acts on", () => {
    expect(serviceSettingDefaults()).toEqual({
      EnableUploadImage: true,
      EnablePushToTalk: false,
      MessageLimit: -1,
      RateLimitCount: 0,
      RateLimitTime: 0,
    });
  });
});
