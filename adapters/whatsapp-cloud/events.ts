/**
 * What Meta posts to the webhook, parsed with schemas of the fields the adapter reads
 * (/work/shared/notes/whatsapp-cloud.md, "Envelope", "Inbound message", "Statuses"): a body that
 * is not Meta's envelope is refused with the reason (the route answers 400) instead of failing in
 * a handler. Inside it, each message and each status is parsed on its own: one Meta sends in a
 * shape the adapter does not read (a `system` notice without `from`, a field Meta changed) is set
 * aside with the reason (`unreadable`; the route logs it and answers 200), and the rest of the
 * batch is taken, since Meta would otherwise post the whole batch again for 7 days. Fields the
 * adapter does not read pass unchecked, so a field Meta adds breaks nothing; a message of a type
 * the adapter does not know still parses (inbound.ts decides what to do).
 *
 * A user is named by `from` (their number, `wa_id`) or, for a user Meta names only by their
 * business-scoped user id (a username, no number), by `from_user_id` (contacts: `user_id`).
 */
import { z } from 'zod';

const text = z.string();
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);
/** Meta sends Unix seconds as a string; a number is taken too. */
const unixSeconds = z
  .union([z.string().regex(/^\d{1,12}$/, 'Unix seconds'), z.number().int().nonnegative()])
  .transform(Number);

const media = z.looseObject({
  id: text.min(1),
  mime_type: optionalText,
  sha256: optionalText,
  caption: optionalText,
});

/** What a message says, by its type: a message's own fields, and an edit's message as it reads now. */
const messageContent = z.looseObject({
  type: text.min(1),
  /**
   * The message this one replies to (Meta names it by its wamid; `from` is who wrote it), or the one
   * that carried the buttons pressed. A forwarded message has a context without an id.
   */
  context: z.looseObject({ id: optionalText, from: optionalText }).optional(),
  text: z.looseObject({ body: text }).optional(),
  image: media.optional(),
  video: media.optional(),
  sticker: media.extend({ animated: z.boolean().optional() }).optional(),
  audio: media.extend({ voice: z.boolean().optional() }).optional(),
  document: media.extend({ filename: optionalText }).optional(),
  interactive: z
    .looseObject({
      type: text,
      button_reply: z.looseObject({ id: text, title: text }).optional(),
      list_reply: z.looseObject({ id: text, title: text, description: optionalText }).optional(),
    })
    .optional(),
  /** A template's quick-reply button pressed. */
  button: z.looseObject({ text: optionalText, payload: optionalText }).optional(),
  reaction: z.looseObject({ message_id: optionalText, emoji: optionalText }).optional(),
  /** Meta's notice about the user (`user_changed_number`, `user_changed_user_id`). */
  system: z.looseObject({ type: optionalText, body: optionalText, user_id: optionalText }).optional(),
});

export const cloudMessageSchema = messageContent.extend({
  /** The user's number; absent for a user Meta names only by their business-scoped user id, and in a `system` notice. */
  from: optionalText,
  /** The user's business-scoped user id (BSUID). */
  from_user_id: optionalText,
  id: text.min(1),
  timestamp: unixSeconds,
  /**
   * `type: "edit"`: the user edited a message of theirs (within 15 minutes), `message` is it as it reads
   * now. Meta's "Edit messages webhook reference" (developers.facebook.com/documentation/business-messaging/
   * whatsapp/webhooks/reference/messages/edit); sent only for a number also on the WhatsApp Business app
   * ("Coexistence"). Elsewhere an edit comes as `unsupported` (`unsupported.type: "edit"`), with neither.
   */
  edit: z.looseObject({ original_message_id: text.min(1), message: messageContent }).optional(),
  /** `type: "revoke"`: the user deleted a message of theirs for everyone (Meta's "Revoke messages webhook reference"; Coexistence only too). */
  revoke: z.looseObject({ original_message_id: text.min(1) }).optional(),
});

export type CloudMessage = z.infer<typeof cloudMessageSchema>;
export type CloudMessageContent = z.infer<typeof messageContent>;

export const cloudStatusSchema = z.looseObject({
  id: text.min(1),
  status: text.min(1),
  timestamp: unixSeconds.optional(),
  recipient_id: optionalText,
  errors: z
    .array(
      z.looseObject({
        code: z.number().optional(),
        title: optionalText,
        message: optionalText,
        error_data: z.looseObject({ details: optionalText }).nullish(),
      }),
    )
    .optional(),
});

export type CloudStatus = z.infer<typeof cloudStatusSchema>;

/** The `value` of a `messages` change. */
const messagesValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: text.min(1), display_phone_number: optionalText }),
  contacts: z
    .array(
      z.looseObject({
        wa_id: optionalText,
        user_id: optionalText,
        profile: z.looseObject({ name: optionalText }).nullish(),
      }),
    )
    .optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});

const envelopeSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.looseObject({
      changes: z.array(z.looseObject({ field: text, value: z.unknown() })),
    }),
  ),
});

/** One `messages` change: for which number, from whom (names by wa_id and by user_id), what. */
export interface MessagesChange {
  phoneNumberId: string;
  names: ReadonlyMap<string, string>;
  messages: CloudMessage[];
  statuses: CloudStatus[];
  /** Messages and statuses in a shape the adapter does not read: where, Meta's id when it had one, and why. */
  unreadable: { at: string; id?: string; reason: string }[];
}

export type ParsedWebhook =
  { ok: true; changes: MessagesChange[]; otherFields: string[] } | { ok: false; reason: string };

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '<root>'}: ${issue.message}` : 'not a WhatsApp Business Account webhook';
}

/** Each item that parses; the others are set aside in `unreadable` with where they were and why. */
function eachParsed<T>(
  items: unknown[],
  schema: z.ZodType<T>,
  at: string,
  unreadable: MessagesChange['unreadable'],
): T[] {
  const parsed: T[] = [];
  for (const [index, item] of items.entries()) {
    const result = schema.safeParse(item);
    if (result.success) {
      parsed.push(result.data);
      continue;
    }
    const id = typeof item === 'object' && item !== null && 'id' in item ? (item as { id: unknown }).id : undefined;
    unreadable.push({
      at: `${at}.${index}`,
      ...(typeof id === 'string' ? { id } : {}),
      reason: describe(result.error),
    });
  }
  return parsed;
}

/** The body Meta posted (raw bytes already checked against the signature), or why it is not one. */
export function parseWebhook(raw: string): ParsedWebhook {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, reason: describe(envelope.error) };
  const changes: MessagesChange[] = [];
  const otherFields: string[] = [];
  for (const [e, entry] of envelope.data.entry.entries()) {
    for (const [c, change] of entry.changes.entries()) {
      if (change.field !== 'messages') {
        otherFields.push(change.field);
        continue;
      }
      const value = messagesValue.safeParse(change.value);
      if (!value.success) return { ok: false, reason: `entry.${e}.changes.${c}.value.${describe(value.error)}` };
      const names = new Map<string, string>();
      for (const contact of value.data.contacts ?? []) {
        const name = contact.profile?.name;
        if (!name) continue;
        if (contact.wa_id) names.set(contact.wa_id, name);
        if (contact.user_id) names.set(contact.user_id, name);
      }
      const at = `entry.${e}.changes.${c}.value`;
      const unreadable: MessagesChange['unreadable'] = [];
      const messages = eachParsed(value.data.messages ?? [], cloudMessageSchema, `${at}.messages`, unreadable);
      const statuses = eachParsed(value.data.statuses ?? [], cloudStatusSchema, `${at}.statuses`, unreadable);
      changes.push({ phoneNumberId: value.data.metadata.phone_number_id, names, messages, statuses, unreadable });
    }
  }
  return { ok: true, changes, otherFields };
}
