/**
 * Numbered choices: when choices do not fit buttons or a list (interactive.ts), they are sent as
 * numbered text, and a reply that is just one of the numbers means that choice: a suggested
 * question is asked, a button is pressed. What the numbers mean is kept per user in the bot's
 * platform storage (Redis), so the replica that receives the reply knows it; it is replaced by
 * the next numbered message and dropped by any other message the bot sends that user, so a
 * "2" typed later, answering the bot's own question, is never taken for an old choice.
 */
import type { Inbound, Logger, PlatformStorage } from '../../src/contract.js';
import type { Choice } from './interactive.js';

/** Numbers mean their choice for a day: a reply that comes later answers something else. */
export const CHOICES_TTL_MS = 24 * 60 * 60_000;

export const choicesKey = (user: string): string => `choices:${user}`;

/** "2", " 2 ", "2." or "2)": a reply that is only a number. */
const NUMBER_REPLY = /^\s*(\d{1,2})\s*[.)]?\s*$/;

export class NumberedChoices {
  constructor(
    private readonly storage: PlatformStorage,
    private readonly logger: Logger,
  ) {}

  /** What `user`'s replies with a number mean from now on. */
  async remember(user: string, choices: readonly Choice[]): Promise<void> {
    const stored = choices.map(({ kind, title, value }) => ({ kind, title, value }));
    await this.storage
      .setBytes(choicesKey(user), new TextEncoder().encode(JSON.stringify(stored)), { ttlMs: CHOICES_TTL_MS })
      .catch((error: unknown) => {
        // The numbered text still goes: the user can type the question instead of its number.
        this.logger.warn(
          { err: error, conversation: user },
          'whatsapp-cloud: could not keep what the numbered choices mean; a reply with a number is taken as typed',
        );
      });
  }

  /** The bot sent something else: a number typed from now on answers that, not an older list. */
  async forget(user: string): Promise<void> {
    await this.storage.delete(choicesKey(user)).catch((error: unknown) => {
      this.logger.warn(
        { err: error, conversation: user },
        'whatsapp-cloud: could not drop the numbered choices sent before',
      );
    });
  }

  /** The message as the core should see it: a reply with one of the numbers becomes its choice. */
  async resolve(inbound: Inbound): Promise<Inbound> {
    const number = inbound.action || inbound.attachments.length > 0 ? undefined : NUMBER_REPLY.exec(inbound.text)?.[1];
    if (number === undefined) return inbound;
    let raw: Uint8Array | null;
    try {
      raw = await this.storage.getBytes(choicesKey(inbound.conversation.id));
    } catch (error) {
      this.logger.warn(
        { err: error, conversation: inbound.conversation.id },
        'whatsapp-cloud: could not read what the numbered choices mean; the number is taken as typed',
      );
      return inbound;
    }
    const choice = raw ? parseChoices(raw)[Number(number) - 1] : undefined;
    if (!choice) return inbound;
    if (choice.kind === 'suggestion') return { ...inbound, text: choice.value };
    // As a press of that button: its title is what the user chose.
    return { ...inbound, text: choice.title, action: { id: inbound.platformMessageId, value: choice.value } };
  }
}

function parseChoices(raw: Uint8Array): Choice[] {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(raw)) as unknown;
    // All or nothing: one entry left out would shift the numbers after it.
    if (!Array.isArray(parsed)) return [];
    const valid = parsed.every(
      (entry: unknown): entry is Choice =>
        typeof entry === 'object' &&
        entry !== null &&
        ((entry as Choice).kind === 'action' || (entry as Choice).kind === 'suggestion') &&
        typeof (entry as Choice).value === 'string' &&
        typeof (entry as Choice).title === 'string',
    );
    return valid ? (parsed as Choice[]) : [];
  } catch {
    return [];
  }
}
