/**
 * What Slack sends (Events API envelopes, interactivity payloads, slash commands),
 * parsed with schemas of the fields the adapter reads instead of read property by
 * property: a body of the wrong shape becomes `malformed` with the reason, never an
 * exception in a handler (over HTTP that was a 500, and Slack sent the same body again,
 * for nothing). Fields the adapter does not read pass unchecked.
 */
import { z } from 'zod';

/** Optional text, which Slack sometimes sends as null. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);
const slackTs = z.string().regex(/^\d+\.\d+$/, 'expected a Slack ts such as 1712345678.000100');
const optionalTs = slackTs.nullish().transform((value) => value ?? undefined);
const id = z.string().min(1);

const slackFile = z.object({
  id: optionalText,
  name: optionalText,
  mimetype: optionalText,
  subtype: optionalText,
  size: z
    .number()
    .nullish()
    .transform((value) => value ?? undefined),
  url_private: optionalText,
  url_private_download: optionalText,
  duration_ms: z
    .number()
    .nullish()
    .transform((value) => value ?? undefined),
  mode: optionalText,
});

const optionalFlag = z
  .boolean()
  .nullish()
  .transform((value) => value ?? undefined);

/**
 * One of a message's legacy `attachments[]`: a message shared into it (`is_share`, Slack's "Share
 * message") or a pasted link to a message that Slack unfurled (`is_msg_unfurl`), with its text and
 * author; or a link preview or an app's attachment, which the adapter does not read. One it cannot
 * read counts as such a one, never as a malformed message (the message is still answered).
 */
const attachment = z
  .object({
    is_share: optionalFlag,
    is_msg_unfurl: optionalFlag,
    text: optionalText,
    fallback: optionalText,
    author_id: optionalText,
    author_name: optionalText,
    author_subname: optionalText,
    bot_id: optionalText,
  })
  .catch({
    is_share: undefined,
    is_msg_unfurl: undefined,
    text: undefined,
    fallback: undefined,
    author_id: undefined,
    author_name: undefined,
    author_subname: undefined,
    bot_id: undefined,
  });

/** What every message carries, at the top of a `message` event or inside a `message_changed` / `message_deleted`. */
const messageFields = {
  subtype: optionalText,
  user: optionalText,
  bot_id: optionalText,
  team: optionalText,
  text: optionalText,
  ts: slackTs,
  thread_ts: optionalTs,
  user_profile: z
    .object({ display_name: optionalText, real_name: optionalText, name: optionalText })
    .nullish()
    .transform((value) => value ?? undefined),
  files: z.array(slackFile).optional(),
  attachments: z.array(attachment).optional(),
};

/** The message a `message_changed` carries as it reads now (`message`) and as it read before (`previous_message`). */
const innerMessage = z
  .object({
    ...messageFields,
    edited: z
      .object({ user: optionalText, ts: optionalText })
      .nullish()
      .transform((value) => value ?? undefined),
  })
  .nullish()
  .transform((value) => value ?? undefined);

/**
 * A `message` (any subtype) or an `app_mention`. An edit (`message_changed`) carries the message in
 * `message` and `previous_message`; a deletion (`message_deleted`) the deleted one's ts in
 * `deleted_ts` and the message in `previous_message`; their own `ts` is the change's.
 */
const messageEvent = z.object({
  type: z.enum(['message', 'app_mention']),
  channel: id,
  channel_type: optionalText,
  ...messageFields,
  message: innerMessage,
  previous_message: innerMessage,
  deleted_ts: optionalTs,
});

/**
 * The user pressed the stop button of an agent session (an app declared as an agent in Slack's
 * settings, its session in the thread set to "processing").
 */
const agentSessionStopped = z.object({
  type: z.literal('agent_session_stopped'),
  channel: id,
  user: id,
  thread_ts: slackTs,
  event_ts: slackTs,
});

const assistantThreadStarted = z.object({
  type: z.literal('assistant_thread_started'),
  assistant_thread: z.object({ user_id: id, channel_id: id, thread_ts: slackTs }),
  event_ts: slackTs,
});

/** The Events API envelope; its `event` is parsed by type afterwards. */
const eventCallback = z.object({
  type: z.literal('event_callback'),
  team_id: optionalText,
  event_id: optionalText,
  event: z.looseObject({ type: z.string().min(1) }),
});

const blockActions = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id, name: optionalText, username: optionalText, team_id: optionalText }),
  team: z
    .object({ id })
    .nullish()
    .transform((value) => value ?? undefined),
  channel: z
    .object({ id })
    .nullish()
    .transform((value) => value ?? undefined),
  message: z
    .object({ ts: slackTs, thread_ts: optionalTs })
    .nullish()
    .transform((value) => value ?? undefined),
  actions: z.array(
    z.object({
      action_id: z.string(),
      action_ts: slackTs,
      value: optionalText,
      text: z
        .object({ text: z.string() })
        .nullish()
        .transform((value) => value ?? undefined),
    }),
  ),
});

const slashCommand = z.object({
  command: z.string().min(1),
  text: z.string().default(''),
  channel_id: id,
  user_id: id,
  user_name: optionalText,
  team_id: optionalText,
  trigger_id: id,
});

const urlVerification = z.object({ type: z.literal('url_verification'), challenge: z.string() });

/** Which kind of body this is: every kind Slack sends names itself by one of these fields. */
const bodyKind = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  ssl_check: z.string().optional(),
});

export type SlackMessageEvent = z.infer<typeof messageEvent>;
export type SlackInnerMessage = NonNullable<z.infer<typeof innerMessage>>;
export type SlackAttachment = z.infer<typeof attachment>;
export type SlackAssistantThreadEvent = z.infer<typeof assistantThreadStarted>;
export type SlackAgentSessionStoppedEvent = z.infer<typeof agentSessionStopped>;
export type SlackBlockActions = z.infer<typeof blockActions>;
export type SlackCommandPayload = z.infer<typeof slashCommand>;

/** An event the adapter acts on, with the envelope's team. */
export type SlackEventInput = {
  kind: 'event';
  event: SlackMessageEvent | SlackAssistantThreadEvent | SlackAgentSessionStoppedEvent;
  teamId: string | undefined;
  eventId: string | undefined;
};
/** What the bot may have to answer: handed to the dispatcher once the bot can take it. */
export type SlackInput =
  SlackEventInput | { kind: 'action'; payload: SlackBlockActions } | { kind: 'command'; command: SlackCommandPayload };

export type SlackRequest =
  | SlackInput
  | { kind: 'url_verification'; challenge: string }
  | { kind: 'ssl_check' }
  /** Well formed, but nothing for this adapter (an event type or interaction it does not handle). */
  | { kind: 'ignored'; what: string }
  /** Cannot be understood: acknowledged and logged, never answered (a redelivery would be the same). */
  | { kind: 'malformed'; reason: string; eventId?: string };

/** At most this many problems are named in a reason (one log line). */
const REASONS_NAMED = 3;

function malformed(error: z.ZodError, at: string, eventId?: string): SlackRequest {
  const reasons = error.issues
    .slice(0, REASONS_NAMED)
    .map((issue) => `${[at, ...issue.path.map(String)].filter(Boolean).join('.') || 'body'}: ${issue.message}`);
  return { kind: 'malformed', reason: reasons.join('; '), ...(eventId ? { eventId } : {}) };
}

function classifyEvent(body: unknown): SlackRequest {
  const envelope = eventCallback.safeParse(body);
  if (!envelope.success) return malformed(envelope.error, '');
  const { event, team_id: teamId, event_id: eventId } = envelope.data;
  const schema =
    event.type === 'message' || event.type === 'app_mention'
      ? messageEvent
      : event.type === 'assistant_thread_started'
        ? assistantThreadStarted
        : event.type === 'agent_session_stopped'
          ? agentSessionStopped
          : undefined;
  // assistant_thread_context_changed and anything else subscribed later: acknowledging is all Slack needs.
  if (!schema) return { kind: 'ignored', what: `event ${event.type}` };
  const parsed = schema.safeParse(event);
  if (!parsed.success) return malformed(parsed.error, 'event', eventId);
  return { kind: 'event', event: parsed.data, teamId, eventId };
}

/** Any body Slack sends, already decoded from JSON or form fields (Socket Mode hands them so). */
export function classifySlackBody(body: unknown): SlackRequest {
  const head = bodyKind.safeParse(body);
  if (!head.success) return malformed(head.error, '');
  if (head.data.ssl_check !== undefined) return { kind: 'ssl_check' };
  if (head.data.command !== undefined) {
    const command = slashCommand.safeParse(body);
    return command.success ? { kind: 'command', command: command.data } : malformed(command.error, '');
  }
  switch (head.data.type) {
    case 'url_verification': {
      const verification = urlVerification.safeParse(body);
      return verification.success
        ? { kind: 'url_verification', challenge: verification.data.challenge }
        : malformed(verification.error, '');
    }
    case 'event_callback':
      return classifyEvent(body);
    case 'block_actions': {
      const payload = blockActions.safeParse(body);
      return payload.success ? { kind: 'action', payload: payload.data } : malformed(payload.error, '');
    }
    case undefined:
      return {
        kind: 'malformed',
        reason: 'body: no type, command or ssl_check (not an event, an interaction or a slash command)',
      };
    default:
      return { kind: 'ignored', what: head.data.type };
  }
}

/**
 * A request body as Slack posts it: JSON (Events API), or form fields holding either a
 * `payload` of JSON (interactivity) or the fields themselves (slash commands, ssl_check).
 */
export function parseSlackHttpBody(raw: string, contentType: string | undefined): SlackRequest {
  const form = /^application\/x-www-form-urlencoded\b/i.test(contentType ?? '');
  const fields = form ? new URLSearchParams(raw) : undefined;
  const json = fields ? fields.get('payload') : raw;
  if (fields && json === null) return classifySlackBody(Object.fromEntries(fields));
  let decoded: unknown;
  try {
    decoded = JSON.parse(json ?? '');
  } catch (error) {
    return { kind: 'malformed', reason: `${fields ? 'payload' : 'body'}: not JSON (${(error as Error).message})` };
  }
  return classifySlackBody(decoded);
}
