/**
 * Signing in by e-mail: a known operator's address receives a one-time link; an unknown address receives nothing, and
 * the page says the same either way, so it tells nobody who is an operator.
 *
 * A link is 32 random bytes in the mail and, in the state store, the SHA-256 of them (inboxKeys.signInLink) with the
 * account's address and the SHA-256 of the asking browser's nonce (the `cb_inbox_pending` cookie): it works for
 * inbox.signInLinkMinutes, once, in that browser only. Opening it shows a button (GET changes nothing, so a mail
 * scanner following it uses nothing up); the button's POST spends it with a compare-and-delete, so two presses sign
 * in once. The mail goes straight through SMTP, not the outbox: a queued mail would keep a usable link in Redis.
 */
import { createHash, randomBytes } from 'node:crypto';
import { html } from '../../format/index.js';
import type { Logger } from '../../logger.js';
import type { StateStore } from '../../state/index.js';
import { inboxKeys } from '../keys.js';
import type { MailTransport } from '../mail/index.js';
import type { AuditLog, OperatorAccount, OperatorAccounts } from '../operators/index.js';
import { normalEmail } from '../operators/index.js';

const LINK_TOKEN_BYTES = 32;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Where the mail's link lands (GET: a page with a button; POST: the sign-in). */
export const SIGN_IN_LINK_PATH = '/sign-in/link';

export interface SignInMailOptions {
  state: StateStore;
  accounts: OperatorAccounts;
  audit: AuditLog;
  /** null: no SMTP_URL, and no link can be sent (logged, naming the setting). */
  transport: MailTransport | null;
  from: string;
  /** The inbox as the operator's browser opens it: `https://bots.example.com/inbox`. */
  inboxUrl: string;
  minutes: number;
  logger: Logger;
}

/** What spending a link gave. */
export type SpentLink =
  { ok: true; account: OperatorAccount } | { ok: false; reason: 'gone' | 'other-browser' | 'no-account' };

export class SignInMail {
  constructor(private readonly options: SignInMailOptions) {}

  get minutes(): number {
    return this.options.minutes;
  }

  /**
   * Sends a link to `email` when it is an operator's; records the request either way. Called after the page has
   * answered, so that how long it takes tells nothing either. Never throws: a failure is logged.
   */
  async request(rawEmail: string, browserNonce: string, address: string, now = Date.now()): Promise<void> {
    const { accounts, audit, logger } = this.options;
    try {
      const email = normalEmail(rawEmail);
      const account = email ? await accounts.byEmail(email) : null;
      if (!account) {
        await audit.record({ action: 'sign-in-link-unknown-address', actor: rawEmail.trim().slice(0, 254), address });
        return;
      }
      const token = randomBytes(LINK_TOKEN_BYTES).toString('base64url');
      const ttlMs = this.options.minutes * 60_000;
      const key = inboxKeys.signInLink(digest(token));
      await this.options.state.hashSet(key, { email: account.email, browser: digest(browserNonce) });
      await this.options.state.expire(key, ttlMs);
      await audit.record({ action: 'sign-in-link-sent', actor: account.email, address });
      await this.send(account, `${this.options.inboxUrl}${SIGN_IN_LINK_PATH}?token=${token}`, now + ttlMs);
    } catch (error) {
      logger.error({ err: error }, 'an inbox sign-in link could not be sent');
    }
  }

  /** Whether a link can still be spent in this browser (for the page its GET shows). */
  async check(token: string, browserNonce: string | null): Promise<'ok' | 'gone' | 'other-browser'> {
    if (!TOKEN.test(token)) return 'gone';
    const link = await this.options.state.hashGetAll(inboxKeys.signInLink(digest(token)));
    if (!link.email || !link.browser) return 'gone';
    return browserNonce !== null && link.browser === digest(browserNonce) ? 'ok' : 'other-browser';
  }

  /** Spends a link: once, in the browser that asked for it, for an account that still exists. */
  async spend(token: string, browserNonce: string | null): Promise<SpentLink> {
    if (!TOKEN.test(token)) return { ok: false, reason: 'gone' };
    const key = inboxKeys.signInLink(digest(token));
    const link = await this.options.state.hashGetAll(key);
    if (!link.email || !link.browser) return { ok: false, reason: 'gone' };
    if (browserNonce === null || link.browser !== digest(browserNonce)) return { ok: false, reason: 'other-browser' };
    const spent = await this.options.state.hashCompareAndRun(key, { email: link.email, browser: link.browser }, [
      { op: 'del', key },
    ]);
    if (!spent.applied) return { ok: false, reason: 'gone' };
    const account = await this.options.accounts.byEmail(link.email);
    return account ? { ok: true, account } : { ok: false, reason: 'no-account' };
  }

  private async send(account: OperatorAccount, url: string, expiresAt: number): Promise<void> {
    const { transport, logger } = this.options;
    if (!transport) {
      logger.error(
        { account: account.id },
        'An operator asked for an inbox sign-in link but SMTP_URL (smtp.url) is not set: no link can be sent. Set SMTP_URL, ' +
          'or sign in with the admin token (inbox.tokenSignIn).',
      );
      return;
    }
    const until = new Date(expiresAt).toISOString().slice(11, 16);
    const minutes = this.options.minutes;
    await transport.sendMail({
      from: this.options.from,
      to: account.email,
      subject: 'Your sign-in link to the inbox',
      text:
        `Hello ${account.name},\n\nOpen this link to sign in to the inbox:\n${url}\n\n` +
        `It works once, for ${minutes} minutes (until ${until} UTC), in the browser where you asked for it.\n` +
        'If you did not ask for it, ignore this mail: the link signs nobody in from another browser.\n',
      html: html`<p>Hello ${account.name},</p>
<p><a href="${url}">Sign in to the inbox</a></p>
<p>The link works once, for ${minutes} minutes (until ${until} UTC), in the browser where you asked for it.</p>
<p>If you did not ask for it, ignore this mail: the link signs nobody in from another browser.</p>`.toString(),
    });
    logger.info({ account: account.id }, 'an inbox sign-in link was sent');
  }
}

/** A new nonce for the browser that asks for a link (the `cb_inbox_pending` cookie). */
export function newBrowserNonce(): string {
  return randomBytes(LINK_TOKEN_BYTES).toString('base64url');
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
