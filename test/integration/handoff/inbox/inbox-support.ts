/**
 * What the inbox tests run: a gateway "process" (real core, real handoff, real HTTP server, real
 * Redis) serving two bots on the in-memory platform (whose files any process can fetch again from
 * their refs), and a small browser: a cookie jar, forms posted as a browser posts them (with the
 * page's Origin), redirects not followed, so that each step can be looked at.
 */
import { buildConfigSchema, type Config } from '../../../../src/config/schema.js';
import type { Gateway, GatewayPolicy } from '../../../../src/gateway/index.js';
import type { InstalledHandoff } from '../../../../src/handoff/index.js';
import { silentLogger, type Logger } from '../../../../src/logger.js';
import { PLATFORMS } from '../../../../src/runtime/platforms.js';
import type { StateStore } from '../../../../src/state/index.js';
import type { ChatbotServiceApi } from '../../../../src/upstream/api.js';
import { createMemoryAdapter, MemoryPlatform, type MemoryAdapter } from '../../../../fakes/memory/index.js';
import { ADMIN_TOKEN, DEMO_SERIAL_NUMBER, HANDOFF_SETTINGS, startGatewayWithHandoff, TEST_HANDOFF } from '../stack.js';

export { ADMIN_TOKEN };
/** The in-memory platform's name in these tests. */
export const PLATFORM = 'fakechat';
export const OTHER_BOT = 'other';

export interface InboxProcessOptions {
  state: StateStore;
  upstream: ChatbotServiceApi;
  /** Where handoff e-mails go (the SMTP catcher); none: they wait in the outbox. */
  smtpUrl?: string;
  /** null: no ADMIN_TOKEN at all (the inbox is off). */
  adminToken?: string | null;
  trustProxy?: Config['http']['trustProxy'];
  /** admin.publicUrl (PUBLIC_URL): the base of links in e-mails, and a trusted origin of the inbox's pages. */
  publicUrl?: string;
  /** One user's screen, shared by the processes of a test. */
  platform?: MemoryPlatform;
  logger?: Logger;
  policy?: Partial<GatewayPolicy>;
  /** The inbox's settings (inbox.tokenSignIn, inbox.signInLinkMinutes). */
  inbox?: Partial<Config['inbox']>;
}

export interface InboxProcess {
  state: StateStore;
  gateway: Gateway;
  handoff: InstalledHandoff;
  platform: MemoryPlatform;
  adapters: MemoryAdapter[];
  url: string;
  browser(headers?: Record<string, string>): Browser;
  stop(): Promise<void>;
}

export async function startInboxProcess(options: InboxProcessOptions): Promise<InboxProcess> {
  const adminToken = options.adminToken === undefined ? ADMIN_TOKEN : options.adminToken;
  const config = buildConfigSchema(PLATFORMS).parse({
    ...(adminToken
      ? { admin: { token: adminToken, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) } }
      : {}),
    ...(options.smtpUrl ? { smtp: { url: options.smtpUrl } } : {}),
    handoff: TEST_HANDOFF,
    http: { trustProxy: options.trustProxy ?? false },
    ...(options.inbox ? { inbox: options.inbox } : {}),
    bots: [
      { id: 'main', serialNumber: DEMO_SERIAL_NUMBER },
      { id: OTHER_BOT, serialNumber: DEMO_SERIAL_NUMBER },
    ],
  });
  const platform = options.platform ?? new MemoryPlatform({ name: PLATFORM });
  // No edits: every answer arrives as one message, easy to read back.
  const adapters = ['main', OTHER_BOT].map((bot) => createMemoryAdapter({ platform, bot, methods: { edit: false } }));
  const started = await startGatewayWithHandoff({
    state: options.state,
    upstream: options.upstream,
    config,
    settings: HANDOFF_SETTINGS,
    adapters,
    logger: options.logger ?? silentLogger(),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  return {
    ...started,
    state: options.state,
    platform,
    adapters,
    browser: (headers = {}) => new Browser(started.url, headers),
  };
}

export interface Page {
  status: number;
  html: string;
  headers: Headers;
}

/**
 * A browser, as far as the server can tell: it keeps the session cookie, sends a form's POST
 * with the page's Origin (as browsers do), and does not follow redirects.
 */
export class Browser {
  /** The `cb_inbox` cookie's value, and the Set-Cookie lines received. */
  session: string | undefined;
  /** The `cb_inbox_pending` cookie's value: the nonce of a browser that asked for a sign-in link. */
  pending: string | undefined;
  readonly setCookies: string[] = [];

  constructor(
    readonly base: string,
    /** Sent with every request (e.g. X-Forwarded-Proto). */
    private readonly headers: Record<string, string> = {},
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.request('GET', path, undefined, headers);
  }

  /** A form's POST from a page of this inbox (Origin: the inbox's own), unless `headers` say otherwise. */
  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    return this.request('POST', path, new URLSearchParams(form).toString(), {
      origin: this.base,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    });
  }

  /** Signs in with the admin token and `name`; returns the answer to the POST (a 303 when it worked). */
  async signIn(name = 'Bruno', token = ADMIN_TOKEN): Promise<Page> {
    return this.post('/inbox/sign-in', { token, name });
  }

  /** The CSRF token of the page at `path` (every form of a signed-in page carries it). */
  async csrf(path = '/inbox'): Promise<string> {
    return csrfIn((await this.get(path)).html);
  }

  private async request(
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<Page> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...this.headers, ...this.cookieHeader(), ...headers },
      ...(body === undefined ? {} : { body }),
    });
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const match = /^(cb_inbox|cb_inbox_pending)=([^;]*)/.exec(line);
      if (!match) continue;
      const value = /Max-Age=0(;|$)/i.test(line) || match[2] === '' ? undefined : match[2];
      if (match[1] === 'cb_inbox') this.session = value;
      else this.pending = value;
    }
    return { status: response.status, html: await response.text(), headers: response.headers };
  }

  private cookieHeader(): { cookie?: string } {
    const cookies = [
      ...(this.session ? [`cb_inbox=${this.session}`] : []),
      ...(this.pending ? [`cb_inbox_pending=${this.pending}`] : []),
    ];
    return cookies.length > 0 ? { cookie: cookies.join('; ') } : {};
  }
}

export function csrfIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in:\n${html}`);
  return match[1]!;
}

/** The e-mail's link into the inbox, from the mail's text. */
export function inboxLinkIn(text: string): string {
  const match = /Open this conversation in the inbox: (http:\/\/\S+)/.exec(text);
  if (!match) throw new Error(`no inbox link in:\n${text}`);
  return match[1]!;
}

/** The path (and query) of a URL of the gateway. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** `/inbox/conversations/<encoded id>`. */
export function conversationPage(bot: string, id: string): string {
  return `/inbox/conversations/${encodeURIComponent(`${bot}:${PLATFORM}:${id}`)}`;
}
