/**
 * adapters/slack/operators/manifest.yaml is what a team pastes to create the operators' app: it
 * must grant every scope doctor checks (for public and private channels, and the e-mail), hear
 * the channel's messages, and send events and button presses to the door's route.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { doorScopes } from '../../../../adapters/slack/operators/doctor.js';
import { OPERATORS_EVENTS_PATH } from '../../../../adapters/slack/operators/receivers.js';

interface ManifestShape {
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
  };
}

const path = fileURLToPath(new URL('../../../../adapters/slack/operators/manifest.yaml', import.meta.url));
const manifest = parse(readFileSync(path, 'utf8')) as ManifestShape;

describe("the Slack operators' app manifest", () => {
  it('grants what doctor checks, for public and private channels, and the e-mail', () => {
    const needed = new Set([...doorScopes(false), ...doorScopes(true)].map(({ scope }) => scope));
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed, 'users:read.email'].sort());
  });

  it("hears the channel's messages and sends them and button presses to the door's route", () => {
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual(['message.channels', 'message.groups']);
    const url = `https://YOUR-HOST${OPERATORS_EVENTS_PATH}`;
    expect(manifest.settings.event_subscriptions.request_url).toBe(url);
    expect(manifest.settings.interactivity).toEqual({ is_enabled: true, request_url: url });
  });
});
