/** The Slack door's section `bots[].handoff.slack` from the environment: HANDOFF_SLACK_* set the first bot's. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/config/index.js';
import { PLATFORMS } from '../../../../src/runtime/platforms.js';

describe("the Slack operators' channel in the configuration", () => {
  it('takes the HANDOFF_SLACK_* variables into the first bot, threads by default', () => {
    const config = loadConfig({
      platforms: PLATFORMS,
      env: {
        HANDOFF_SLACK_CHANNEL: 'C0OPS00001',
        HANDOFF_SLACK_BOT_TOKEN: 'xoxb-ops',
        HANDOFF_SLACK_SIGNING_SECRET: 'ops-secret',
        HANDOFF_SLACK_API_URL: 'http://127.0.0.1:9/api/',
      },
    });
    expect((config.bots[0] as { handoff?: { slack?: unknown } }).handoff?.slack).toEqual({
      channel: 'C0OPS00001',
      botToken: 'xoxb-ops',
      signingSecret: 'ops-secret',
      apiUrl: 'http://127.0.0.1:9/api/',
      mode: 'threads',
    });
  });

  it('names the variable of a value it refuses', () => {
    expect(() =>
      loadConfig({ platforms: PLATFORMS, env: { HANDOFF_SLACK_CHANNEL: 'C0OPS00001', HANDOFF_SLACK_MODE: 'chat' } }),
    ).toThrow(/HANDOFF_SLACK_MODE/);
    expect(() => loadConfig({ platforms: PLATFORMS, env: { HANDOFF_SLACK_CHANNEL: '#support' } })).toThrow(
      /HANDOFF_SLACK_CHANNEL/,
    );
  });
});
