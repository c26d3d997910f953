/**
 * What the Slack app must be granted for the adapter to work: THE list, shared by the app
 * manifest's test (adapters/slack/manifest.yaml must declare all of it), `chatbridge doctor`
 * (names what a token lacks) and the adapter. Each entry says what breaks without it, so
 * doctor's message tells the operator what users would miss, not only a scope name.
 */

export interface SlackScope {
  scope: string;
  /** What users lose when the bot token lacks it (doctor prints this). */
  neededFor: string;
}

/** Bot token (xoxb-) scopes. */
export const SLACK_BOT_SCOPES: readonly SlackScope[] = [
  {
    scope: 'chat:write',
    neededFor: 'posting, editing and streaming answers (chat.postMessage, chat.update, chat.startStream)',
  },
  { scope: 'im:history', neededFor: 'receiving direct messages (message.im)' },
  { scope: 'im:read', neededFor: 'knowing a conversation is a direct message' },
  {
    scope: 'im:write',
    neededFor: 'opening a direct message with a user (conversations.open) for messages the bot starts',
  },
  { scope: 'app_mentions:read', neededFor: 'being answered when mentioned in a channel (app_mention)' },
  { scope: 'channels:history', neededFor: 'following a public-channel thread the bot answers (message.channels)' },
  { scope: 'groups:history', neededFor: 'following a private-channel thread the bot answers (message.groups)' },
  { scope: 'files:read', neededFor: 'downloading files users share (url_private_download)' },
  { scope: 'commands', neededFor: 'the /chatbot slash command' },
  {
    scope: 'assistant:write',
    neededFor: "Slack's AI assistant pane (assistant_thread_started, suggested prompts, status)",
  },
];

/** Bot events the app subscribes to (settings.event_subscriptions.bot_events). */
export const SLACK_BOT_EVENTS: readonly string[] = [
  'message.im',
  'app_mention',
  'message.channels',
  'message.groups',
  'assistant_thread_started',
  'assistant_thread_context_changed',
];

/** The one slash command (Slack takes `/reset` as an unknown command, so the words go after it). */
export const SLACK_SLASH_COMMAND = '/chatbot';

/** The app-level token (xapp-) needs this to open a Socket Mode connection (apps.connections.open). */
export const SLACK_APP_TOKEN_SCOPE = 'connections:write';

/** The bot scopes `granted` lacks, in the order of SLACK_BOT_SCOPES. */
export function missingBotScopes(granted: readonly string[]): SlackScope[] {
  const have = new Set(granted);
  return SLACK_BOT_SCOPES.filter(({ scope }) => !have.has(scope));
}
