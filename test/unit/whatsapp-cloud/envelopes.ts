/** Meta's webhook bodies for the adapter's unit tests, shaped as the notes give them. */
import type { CloudMessage } from '../../../adapters/whatsapp-cloud/events.js';

export const PHONE_NUMBER_ID = '100000000000001';
export const USER = '4915112345678';

let next = 1;
export const wamid = (): string => `wamid.HBgM${String(next++).padStart(10, '0')}`;

/** One message as Meta's `messages[]` holds it. */
export function message(fields: Record<string, unknown>): CloudMessage {
  return { from: USER, id: wamid(), timestamp: 1_760_000_000, ...fields } as CloudMessage;
}

/** A whole webhook body with these messages (and statuses) for `phoneNumberId`. */
export function envelope(value: {
  messages?: unknown[];
  statuses?: unknown[];
  phoneNumberId?: string;
  name?: string;
}): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '200000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: '15550000001',
                phone_number_id: value.phoneNumberId ?? PHONE_NUMBER_ID,
              },
              contacts: [{ profile: { name: value.name ?? 'Ana Lima' }, wa_id: USER }],
              ...(value.messages ? { messages: value.messages } : {}),
              ...(value.statuses ? { statuses: value.statuses } : {}),
            },
          },
        ],
      },
    ],
  };
}
