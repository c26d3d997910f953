/**
 * What Meta posts to the webhook, parsed with schemas of the fields the adapter reads
 * (/work/shared/notes/whatsapp-cloud.md, "Envelope", "Inbound message", "Statuses"): a body of
 * another shape is refused with the reason (the route answers 400) instead of failing in a
 * handler. Fields the adapter does not read pass unchecked, so a field Meta adds breaks nothing;
 * a message of a type the adapter does not know still parses (inbound.ts decides what to do).
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

export const cloudMessageSchema = z.looseObject({
  from: text.min(1),
  id: text.min(1),
  timestamp: unixSeconds,
  type: text.min(1),
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
});

export type CloudMessage = z.infer<typeof cloudMessageSchema>;

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
    .array(z.looseObject({ wa_id: optionalText, profile: z.looseObject({ name: optionalText }).nullish() }))
    .optional(),
  messages: z.array(cloudMessageSchema).optional(),
  statuses: z.array(cloudStatusSchema).optional(),
});

const envelopeSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.looseObject({
      changes: z.array(z.looseObject({ field: text, value: z.unknown() })),
    }),
  ),
});

/** One `messages` change: for which number, from whom (names by wa_id), what. */
export interface MessagesChange {
  phoneNumberId: string;
  names: ReadonlyMap<string, string>;
  messages: CloudMessage[];
  statuses: CloudStatus[];
}

export type ParsedWebhook =
  { ok: true; changes: MessagesChange[]; otherFields: string[] } | { ok: false; reason: string };

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '<root>'}: ${issue.message}` : 'not a WhatsApp Business Account webhook';
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
        if (contact.wa_id && contact.profile?.name) names.set(contact.wa_id, contact.profile.name);
      }
      changes.push({
        phoneNumberId: value.data.metadata.phone_number_id,
        names,
        messages: value.data.messages ?? [],
        statuses: value.data.statuses ?? [],
      });
    }
  }
  return { ok: true, changes, otherFields };
}
