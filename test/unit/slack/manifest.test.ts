/**
 * adapters/slack/manifest.yaml is what an operator pastes into "Create app from manifest":
 * it must grant every scope and subscribe every event the adapter relies on (the list in
 * adapters/slack/scopes.ts), or the app is created and silently misses DMs, mentions or files.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SLACK_BOT_EVENTS, SLACK_BOT_SCOPES, SLACK_SLASH_COMMAND } from '../../../adapters/slack/scopes.js';

interface ManifestShape {
  features: {
    assistant_view?: { assistant_description?: string };
    slash_commands?: { command: string; url?: string; should_escape?: boolean }[];
    app_home?: { messages_tab_enabled?: boolean; messages_tab_read_only_enabled?: boolean };
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string };
    socket_mode_enabled: boolean;
  };
}

const manifestPath = fileURLToPath(new URL('../../../adapters/slack/manifest.yaml', import.meta.url));
const manifest = parse(readFileSync(manifestPath, 'utf8')) as ManifestShape;
const EVENTS_URL = 'https://YOUR-HOST/slack/events';

describe('the Slack app manifest', () => {
  it('grants exactly the bot scopes the adapter needs', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual(SLACK_BOT_SCOPES.map(({ scope }) => scope).sort());
  });

  it('subscribes exactly the bot events the adapter handles', () => {
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual([...SLACK_BOT_EVENTS].sort());
  });

  it('sends events, button presses and the slash command to the one events route', () => {
    expect(manifest.settings.event_subscriptions.request_url).toBe(EVENTS_URL);
    expect(manifest.settings.interactivity).toEqual({ is_enabled: true, request_url: EVENTS_URL });
    expect(manifest.features.slash_commands).toEqual([
      expect.objectContaining({ command: SLACK_SLASH_COMMAND, url: EVENTS_URL, should_escape: false }),
    ]);
  });

  it('turns on the assistant pane and lets users write in the Messages tab', () => {
    expect(manifest.features.assistant_view?.assistant_description).toBeTruthy();
    expect(manifest.features.app_home).toMatchObject({
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
  });

  it('starts in HTTP Events mode (Socket Mode is a switch the operator turns on)', () => {
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });
});
