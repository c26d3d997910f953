/**
 * The platform module: `bots[].whatsappCloud` from the WHATSAPP_CLOUD_* variables, errors that
 * name the variable and the setting, the secrets kept out of the log, the conversation ids.
 */
import { describe, expect, it } from 'vitest';
import { whatsappCloudModule } from '../../../adapters/whatsapp-cloud/module.js';
import { ConfigError, configSecrets, loadConfig } from '../../../src/config/index.js';
import { configuredPlatforms, PLATFORMS } from '../../../src/runtime/platforms.js';

const ENV = {
  WHATSAPP_CLOUD_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBA-system-user-token',
  WHATSAPP_CLOUD_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_CLOUD_APP_SECRET: 'a1b2c3d4e5f6a7b8c9d0',
  WHATSAPP_CLOUD_VERIFY_TOKEN: 'my-verify-token',
};

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ platforms: PLATFORMS, env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the whatsapp-cloud platform module', () => {
  it("is configured by its variables under bots[].whatsappCloud, with Meta's Graph API by default, its secrets known", () => {
    const config = loadConfig({ platforms: PLATFORMS, env: ENV });
    expect(config.bots[0]).toMatchObject({
      whatsappCloud: {
        accessToken: ENV.WHATSAPP_CLOUD_ACCESS_TOKEN,
        phoneNumberId: '106540352242922',
        appSecret: ENV.WHATSAPP_CLOUD_APP_SECRET,
        verifyToken: 'my-verify-token',
        apiUrl: 'https://graph.facebook.com/v23.0',
      },
    });
    expect(configuredPlatforms(config.bots[0]!, PLATFORMS).map(({ platform }) => platform.name)).toEqual([
      'whatsapp-cloud',
    ]);
    const secrets = configSecrets(config, PLATFORMS);
    for (const secret of [
      ENV.WHATSAPP_CLOUD_ACCESS_TOKEN,
      ENV.WHATSAPP_CLOUD_APP_SECRET,
      ENV.WHATSAPP_CLOUD_VERIFY_TOKEN,
    ])
      expect(secrets).toContain(secret);
  });

  it('names the variable and the setting of a missing or wrong value', () => {
    const missing = configError({ WHATSAPP_CLOUD_ACCESS_TOKEN: ENV.WHATSAPP_CLOUD_ACCESS_TOKEN });
    expect(missing.message).toContain('bots.0.whatsappCloud.phoneNumberId');
    expect(missing.message).toContain('set WHATSAPP_CLOUD_PHONE_NUMBER_ID');
    expect(missing.message).toContain('set WHATSAPP_CLOUD_APP_SECRET');
    const wrong = configError({
      ...ENV,
      WHATSAPP_CLOUD_PHONE_NUMBER_ID: '+1 555 0100',
      WHATSAPP_CLOUD_API_URL: 'graph',
    });
    expect(wrong.message).toContain(
      'WHATSAPP_CLOUD_PHONE_NUMBER_ID (bots.0.whatsappCloud.phoneNumberId): the phone number ID',
    );
    expect(wrong.message).toContain('WHATSAPP_CLOUD_API_URL (bots.0.whatsappCloud.apiUrl)');
  });

  it("takes a user's number as a conversation id, and nothing else", () => {
    const { pattern } = whatsappCloudModule.conversationId!;
    expect(pattern.test('4915112345678')).toBe(true);
    expect(pattern.test('+4915112345678')).toBe(false);
    expect(pattern.test('4915112345678@c.us')).toBe(false);
  });
});
