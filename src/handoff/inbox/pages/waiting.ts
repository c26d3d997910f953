/** /inbox: the conversations waiting for a person, newest first. */
import { describeAttachment, type TranscriptEntry } from '../../../gateway/index.js';
import { formatConversationId } from '../../conversation-id.js';
import type { WaitingConversation, WaitingList } from '../../pause/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, conversationTitle, duration, excerpt, platformName, time } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { alert, inboxPage } from './layout.js';
import { operatorLabel, speakerOf, type AccountNames } from './transcript.js';

/** A platform's page for operators that the session may open (the WhatsApp link page). */
export interface PlatformPageLink {
  href: string;
  title: string;
}

export function waitingPage(
  root: string,
  session: InboxSession,
  list: WaitingList,
  now: number,
  platformPages: readonly PlatformPageLink[] = [],
  error?: string,
  accounts: AccountNames = new Map(),
): string {
  const more = list.total - list.shown.length;
  const elsewhere = html`answer these first, or use <code>chatbridge handoff list</code>`;
  const andMore = html`<p class="more">And ${more.toLocaleString('en')} more, waiting longer: ${elsewhere}.</p>`;
  return inboxPage({
    root,
    title: 'Waiting',
    session,
    current: 'waiting',
    events: `${root}/events`,
    main: html`<h1>Waiting for a person</h1>
${alert(error)}
<section id="waiting" data-live aria-labelledby="waiting-count">
<p id="waiting-count">${count(list.total)}</p>
${list.shown.length > 0 ? html`<ul class="waiting">${list.shown.map((item) => row(root, item, now, accounts))}</ul>` : ''}
${more > 0 ? andMore : ''}
</section>
${platformPages.length > 0 ? platformNav(platformPages) : ''}`,
  });
}

/** What a message without text sent: its files, described ("(image kitchen.png, …)"). */
function filesOf(entry: TranscriptEntry): string {
  const described = entry.files?.length ? entry.files.map(describeAttachment) : (entry.attachments ?? []);
  return described.length > 0 ? `(${described.join(', ')})` : '';
}

function count(total: number): string {
  if (total === 0) return 'Nobody is waiting. New conversations appear here as users ask for a person.';
  return total === 1 ? '1 conversation is waiting.' : `${total.toLocaleString('en')} conversations are waiting.`;
}

function row(root: string, { pause, chatbot, last }: WaitingConversation, now: number, accounts: AccountNames): Html {
  const { conversation } = pause;
  const lastMessage = last ? html`${speakerOf(last, chatbot)}: ${excerpt(last.text || filesOf(last))}` : '(none kept)';
  return html`<li>
<a href="${conversationPath(root, formatConversationId(conversation))}">${conversationTitle(pause.user, conversation.platform)}</a>
<dl>
<dt>Chatbot</dt><dd>${chatbot}</dd>
<dt>Platform</dt><dd>${platformName(conversation.platform)}</dd>
<dt>Waiting for</dt><dd>${duration(now - pause.since)} (since ${time(pause.since)})</dd>
<dt>Last message</dt><dd>${lastMessage}</dd>
<dt>Claimed by</dt><dd>${pause.claim ? operatorLabel({ name: pause.claim.by, ...pause.claim }, accounts) : 'nobody yet'}</dd>
</dl>
</li>`;
}

/** Links to the platforms' own pages for operators (the WhatsApp link page). */
function platformNav(links: readonly PlatformPageLink[]): Html {
  return html`<nav aria-label="Platforms"><ul>${links.map((link) => html`<li><a href="${link.href}">${link.title}</a></li>`)}</ul></nav>`;
}
