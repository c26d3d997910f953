/**
 * `chatbridge doctor` for WhatsApp Cloud: the access token and the phone number id work
 * (`GET /{phone-number-id}`: the number and its verified name), and, with the WhatsApp Business
 * Account id, that the app is subscribed to it (`GET /{waba-id}/subscribed_apps`): without the
 * subscription Meta delivers no message at all, the step people miss (the notes, "Webhook").
 * Runs against WHATSAPP_CLOUD_API_URL when set, so a fake or a proxy is checked the same way.
 */
import { GraphClient } from './graph.js';
import { GraphUnreachableError, META_CODES, MetaApiError } from './errors.js';

/** Two small calls; past this, doctor reports the Graph API as unreachable rather than hanging. */
const DOCTOR_TIMEOUT_MS = 10_000;

/** The settings doctor reads (the module's section; its own shape, so module.ts and this file do not import each other). */
export interface CloudDoctorInput {
  accessToken: string;
  phoneNumberId: string;
  wabaId?: string;
  apiUrl: string;
}

function describeFailure(error: unknown, what: string, setting: string, apiUrl: string): string {
  if (error instanceof GraphUnreachableError) {
    const reason = (error.cause as Error | undefined)?.message ?? error.message;
    return `the Graph API at ${apiUrl} did not answer ${what} (${reason}); check WHATSAPP_CLOUD_API_URL and the network`;
  }
  if (error instanceof MetaApiError && error.code === META_CODES.accessToken)
    return (
      `Meta refused the access token (${error.message}); ` +
      "check WHATSAPP_CLOUD_ACCESS_TOKEN (a system user's permanent token with whatsapp_business_messaging)"
    );
  return `Meta refused ${what} (${(error as Error).message}); check ${setting}`;
}

/** Resolves with what it found ("+1 555 000 0001 (Fake Business), subscribed"); rejects with what to fix. */
export async function checkWhatsAppCloud(input: CloudDoctorInput, bot: string): Promise<string> {
  const graph = new GraphClient({ apiUrl: input.apiUrl, accessToken: input.accessToken, timeoutMs: DOCTOR_TIMEOUT_MS });
  let number: { display_phone_number?: unknown; verified_name?: unknown };
  try {
    number = (await graph.get([input.phoneNumberId], 'GET /{phone-number-id}')) as typeof number;
  } catch (error) {
    throw new Error(
      `bot "${bot}": ` +
        describeFailure(
          error,
          `GET /${input.phoneNumberId}`,
          'WHATSAPP_CLOUD_PHONE_NUMBER_ID (the phone number ID under WhatsApp Manager → API Setup, not the number itself)',
          input.apiUrl,
        ),
      { cause: error },
    );
  }
  const shownNumber =
    typeof number.display_phone_number === 'string' ? number.display_phone_number : input.phoneNumberId;
  const verifiedName = typeof number.verified_name === 'string' ? ` (${number.verified_name})` : '';
  const found = `${shownNumber}${verifiedName}`;
  if (!input.wabaId)
    return `${found}; subscription not checked (set WHATSAPP_CLOUD_WABA_ID to check it); webhook at /whatsapp-cloud/${bot}/webhook`;
  let apps: { data?: unknown };
  try {
    apps = (await graph.get([input.wabaId, 'subscribed_apps'], 'GET /{waba-id}/subscribed_apps')) as typeof apps;
  } catch (error) {
    throw new Error(
      `bot "${bot}" (${found}): ` +
        describeFailure(
          error,
          `GET /${input.wabaId}/subscribed_apps`,
          'WHATSAPP_CLOUD_WABA_ID (the WhatsApp Business Account ID)',
          input.apiUrl,
        ),
      { cause: error },
    );
  }
  if (!Array.isArray(apps.data) || apps.data.length === 0) {
    throw new Error(
      `bot "${bot}" (${found}): the app is not subscribed to the WhatsApp Business Account ${input.wabaId}, ` +
        `so Meta delivers no messages: not subscribed: POST /${input.wabaId}/subscribed_apps with the access token ` +
        '(README, "Connecting WhatsApp Cloud")',
    );
  }
  return `${found}; the app is subscribed to WABA ${input.wabaId}; webhook at /whatsapp-cloud/${bot}/webhook`;
}
