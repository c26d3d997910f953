/**
 * Meta's webhook bodies (/work/shared/notes/whatsapp-cloud.md, "Envelope", "Inbound message",
 * "Statuses"): `{object: "whatsapp_business_account", entry: [{id: <WABA id>, changes: [{field,
 * value}]}]}`, with a user's message, a status of a business message, or another field's change.
 */
import { isBusinessScopedId } from './inbound.js';

export interface Business {
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
}

export type Envelope = {
  object: 'whatsapp_business_account';
  entry: { id: string; changes: { field: string; value: Record<string, unknown> }[] }[];
};

function envelope(business: Business, field: string, value: Record<string, unknown>): Envelope {
  return { object: 'whatsapp_business_account', entry: [{ id: business.wabaId, changes: [{ field, value }] }] };
}

function metadata(business: Business): Record<string, string> {
  return { display_phone_number: business.displayPhoneNumber, phone_number_id: business.phoneNumberId };
}

export interface InboundEntry {
  /** `waId`: the number, or the business-scoped user id of a user Meta names by it alone. */
  user: { waId: string; name: string };
  /** A notice about the user (a `system` message): no sender in it, no contact for it. */
  notice?: boolean;
  wamid: string;
  atMs: number;
  /** The part after from/id/timestamp (`{type: 'text', text: {body}}`…). */
  message: Record<string, unknown>;
}

/** User messages in one change, as Meta batches them: each sender once in contacts[], the messages in order. */
export function messageEnvelope(business: Business, entries: readonly InboundEntry[]): Envelope {
  const contacts = new Map(
    entries
      .filter((entry) => !entry.notice)
      .map(({ user }) => [
        user.waId,
        isBusinessScopedId(user.waId)
          ? { profile: { name: user.name }, user_id: user.waId }
          : { profile: { name: user.name }, wa_id: user.waId },
      ]),
  );
  return envelope(business, 'messages', {
    messaging_product: 'whatsapp',
    metadata: metadata(business),
    ...(contacts.size > 0 ? { contacts: [...contacts.values()] } : {}),
    messages: entries.map(({ user, wamid, atMs, message, notice }) => ({
      ...(notice ? {} : isBusinessScopedId(user.waId) ? { from_user_id: user.waId } : { from: user.waId }),
      id: wamid,
      timestamp: String(Math.floor(atMs / 1000)),
      ...message,
    })),
  });
}

export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusError {
  code: number;
  title: string;
  message: string;
  details?: string;
}

/** The status of a business message, as Meta posts it; `failed` carries errors[] with Meta's code. */
export function statusEnvelope(
  business: Business,
  status: { wamid: string; status: StatusName; recipient: string; atMs: number; error?: StatusError },
): Envelope {
  const billable = status.status !== 'failed';
  return envelope(business, 'messages', {
    messaging_product: 'whatsapp',
    metadata: metadata(business),
    statuses: [
      {
        id: status.wamid,
        status: status.status,
        timestamp: String(Math.floor(status.atMs / 1000)),
        recipient_id: status.recipient,
        ...(billable
          ? {
              conversation: { id: `conversation-${status.recipient}`, origin: { type: 'service' } },
              pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
            }
          : {}),
        ...(status.error
          ? {
              errors: [
                {
                  code: status.error.code,
                  title: status.error.title,
                  message: status.error.message,
                  error_data: { details: status.error.details ?? status.error.message },
                },
              ],
            }
          : {}),
      },
    ],
  });
}

/** A change of a field other than `messages`, with a value shaped like Meta's for the common ones. */
export function otherFieldEnvelope(business: Business, field: string, atMs: number): Envelope {
  const values: Record<string, Record<string, unknown>> = {
    account_update: { phone_number: business.displayPhoneNumber, event: 'VERIFIED_ACCOUNT' },
    message_template_status_update: {
      event: 'APPROVED',
      message_template_id: 1234567890,
      message_template_name: 'hello_world',
      message_template_language: 'en_US',
      reason: 'NONE',
    },
    phone_number_quality_update: {
      display_phone_number: business.displayPhoneNumber,
      event: 'FLAGGED',
      current_limit: 'TIER_1K',
    },
  };
  return envelope(business, field, values[field] ?? { event: 'UPDATED', timestamp: Math.floor(atMs / 1000) });
}
