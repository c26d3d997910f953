/**
 * The day's digests of each chatbot, built and queued: the chat logs for EmailForDailyChatLogs and
 * the leads for EmailForDailyLeads. A digest is queued in the handoff's outbox (retries, dead
 * letters, `chatbridge handoff mail`) once per chatbot, kind and day, however many processes ask:
 * a compare-and-set on its `sent` record runs the outbox's writes in the same atomic step.
 */
import type { ConversationRef } from '../../contract.js';
import { conversationTag, type Gateway } from '../../gateway/index.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import type { ChatbotSettings, ListingItem, ListingQuery, ListingPage } from '../../upstream/api.js';
import { newMailId, digestKeys } from '../keys.js';
import type { Outbox } from '../mail/index.js';
import type { DeskBot } from '../pause/index.js';
import { dayConversations } from './day-conversations.js';
import type { DayIndex } from './day-index.js';
import { dayWindow } from './day-window.js';
import { findLead, listingFacts } from './lead-finder.js';
import { composeLeadsMail } from './leads-mail.js';
import { LogsMailBuilder } from './logs-mail.js';
import type {
  DayConversation,
  DayWindow,
  DigestKind,
  DigestMail,
  DigestSendOutcome,
  Digests,
  Lead,
  ListingFact,
} from './types.js';

/** The largest digest e-mail, attachments included: well within what SMTP servers take (often 10–25 MB). */
export const DIGEST_MAX_BYTES = 8 * 1024 * 1024;
/** Listings read for matching, at most (pages of the service's RealEstateList). */
const LISTINGS_MAX = 2_000;
const LISTINGS_PAGE = 200;

/** The setting each kind is mailed to. */
export const DIGEST_SETTING: Readonly<Record<DigestKind, 'EmailForDailyChatLogs' | 'EmailForDailyLeads'>> = {
  logs: 'EmailForDailyChatLogs',
  leads: 'EmailForDailyLeads',
};

export interface DigestServiceOptions {
  gateway: Gateway;
  state: StateStore;
  outbox: Outbox;
  index: DayIndex;
  bots: readonly DeskBot[];
  /** The chatbot's listings, to recognise those a lead saw or asked about; none when unavailable. */
  listListings?(query: ListingQuery): Promise<ListingPage>;
  chatbotName(bot: string): Promise<string>;
  platformName(platform: string): string;
  /** The conversation's signed link into the inbox, when the inbox is on. */
  inboxUrl(conversation: ConversationRef): string | undefined;
  /** How long a `sent` record is kept (a transcript's lifetime: nothing of that day is left after it). */
  keepMs: number;
  logger: Logger;
}

export class DigestService implements Digests {
  constructor(private readonly options: DigestServiceOptions) {}

  async window(bot: string, day?: string): Promise<DayWindow> {
    return (await this.dayOf(bot, day)).window;
  }

  async preview(bot: string, kind: DigestKind, day: string): Promise<{ to: string | null; mail: DigestMail | null }> {
    const { settings, window } = await this.dayOf(bot, day);
    const address = addressIn(settings, kind);
    return { to: address.includes('@') ? address : null, mail: await this.build(bot, kind, window) };
  }

  async send(
    bot: string,
    kind: DigestKind,
    day: string,
    options: { again?: boolean } = {},
  ): Promise<DigestSendOutcome> {
    const { state, outbox } = this.options;
    const { settings, window } = await this.dayOf(bot, day);
    const setting = DIGEST_SETTING[kind];
    const address = addressIn(settings, kind);
    if (!address.includes('@')) {
      return {
        queued: false,
        reason: 'no-address',
        message:
          `The chatbot's ${setting} setting is ${address ? `not an e-mail address ("${address}")` : 'empty'}: ` +
          `set it (chatbridge settings set ${setting}=…) for the ${kind === 'logs' ? 'chat logs' : 'leads'} of bot "${bot}" to be mailed.`,
      };
    }
    const ref = digestRef(bot, kind, window.day);
    const sentKey = digestKeys.sent(conversationTag(ref), bot, kind, window.day);
    if (!options.again) {
      const sent = await state.hashGetAll(sentKey);
      if (sent.at) return { queued: false, reason: 'already-sent', at: Number(sent.at) };
    }
    const mail = await this.build(bot, kind, window);
    if (!mail) return { queued: false, reason: 'empty' };
    const now = Date.now();
    const id = newMailId(ref);
    const result = await state.hashCompareAndRun(sentKey, options.again ? {} : { at: null }, [
      { op: 'hashSet', key: sentKey, fields: { at: String(now), mail: id } },
      { op: 'expire', key: sentKey, ttlMs: this.options.keepMs },
      ...outbox.enqueueCommands(
        ref,
        {
          to: address,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments,
          conversation: `digest:${bot}:${kind}:${window.day}`,
        },
        now,
        now,
        id,
      ),
    ]);
    if (!result.applied) return { queued: false, reason: 'already-sent', at: Number(result.current.at ?? now) };
    // The addresses and numbers found are the business's, in the mail: the log names only counts.
    this.options.logger.info(
      { bot, kind, day: window.day, mail: id, omitted: mail.omitted },
      `the ${kind === 'logs' ? 'chat logs' : 'leads'} of the day were queued for ${setting}`,
    );
    if (!outbox.canSend)
      this.options.logger.warn(
        { bot, kind, day: window.day },
        'SMTP_URL (smtp.url) is not set: the digest waits in the outbox until a gateway with SMTP_URL runs.',
      );
    outbox.wake();
    return { queued: true, mailId: id, to: address };
  }

  async leads(bot: string, day: string): Promise<Lead[]> {
    return this.leadsIn(bot, (await this.dayOf(bot, day)).window);
  }

  private async leadsIn(bot: string, window: DayWindow): Promise<Lead[]> {
    const listings = await this.listings(this.serialOf(bot));
    const leads: Lead[] = [];
    for await (const conversation of this.conversationsOf(bot, window)) {
      // A link is signed only for those who are leads.
      const lead = findLead(conversation, listings, {
        platformName: this.options.platformName,
        inboxUrl: this.options.inboxUrl,
      });
      if (lead) leads.push(lead);
    }
    return leads;
  }

  private conversationsOf(bot: string, window: DayWindow): AsyncGenerator<DayConversation> {
    return dayConversations(this.options.gateway, this.options.index, this.serialOf(bot), window, bot);
  }

  private async build(bot: string, kind: DigestKind, window: DayWindow): Promise<DigestMail | null> {
    const chatbot = await this.options.chatbotName(bot);
    if (kind === 'leads') {
      const leads = await this.leadsIn(bot, window);
      return composeLeadsMail({ chatbot, bot, window, leads, maxBytes: DIGEST_MAX_BYTES });
    }
    const builder = new LogsMailBuilder({
      chatbot,
      bot,
      window,
      platformName: this.options.platformName,
      maxBytes: DIGEST_MAX_BYTES,
    });
    for await (const conversation of this.conversationsOf(bot, window)) builder.add(conversation);
    return builder.finish();
  }

  /** The chatbot's listings as leads are matched against; none when the service cannot list them now. */
  private async listings(serial: string): Promise<ListingFact[]> {
    const list = this.options.listListings;
    if (!list) return [];
    const items: ListingItem[] = [];
    try {
      for (let page = 1; items.length < LISTINGS_MAX; page++) {
        const result = await list({ SerialNumber: serial, PageNumber: page, PageSize: LISTINGS_PAGE });
        items.push(...result.List);
        if (result.List.length < LISTINGS_PAGE || items.length >= result.VirtualCount) break;
      }
    } catch (error) {
      this.options.logger.warn(
        { err: error, serialNumber: serial },
        'the listings could not be read: the leads are found without matching listings',
      );
    }
    return listingFacts(items);
  }

  private serialOf(bot: string): string {
    const found = this.options.bots.find((candidate) => candidate.id === bot);
    if (!found) throw new UnknownBotError(bot, this.options.bots);
    return found.serialNumber;
  }

  private settingsOf(bot: string): Promise<ChatbotSettings> {
    return this.options.gateway.settings.fresh(this.serialOf(bot));
  }

  /** The bot's chatbot settings, and the day `day` (today when unset) in its zone. */
  private async dayOf(bot: string, day: string | undefined): Promise<{ settings: ChatbotSettings; window: DayWindow }> {
    const settings = await this.settingsOf(bot);
    return { settings, window: dayWindow(day, settings.TimeZone) };
  }
}

/** The address a kind of digest goes to, as the setting holds it ('' when unset). */
function addressIn(settings: ChatbotSettings, kind: DigestKind): string {
  return settings[DIGEST_SETTING[kind]]?.trim() ?? '';
}

/** A digest as the outbox files it: the shard of its mail and `sent` record (no conversation of its own). */
function digestRef(bot: string, kind: DigestKind, day: string): ConversationRef {
  return { bot, platform: 'digest', id: `${kind}:${day}` };
}

export class UnknownBotError extends Error {
  constructor(bot: string, bots: readonly DeskBot[]) {
    super(`No bot "${bot}" is configured; the bots are ${bots.map((each) => `"${each.id}"`).join(', ')}.`);
    this.name = 'UnknownBotError';
  }
}
