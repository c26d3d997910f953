/** /inbox/history: the conversations handed back to the assistant, newest first. */
import { formatConversationId } from '../../conversation-id.js';
import type { HandBack } from '../../pause/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, conversationTitle, duration, time } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { inboxPage } from './layout.js';
import { operatorLabel, type AccountNames } from './transcript.js';

export function historyPage(
  root: string,
  session: InboxSession,
  entries: readonly HandBack[],
  chatbots: ReadonlyMap<string, string>,
  accounts: AccountNames = new Map(),
): string {
  return inboxPage({
    root,
    title: 'History',
    session,
    current: 'history',
    events: `${root}/events`,
    main: html`<h1>Handed back to the assistant</h1>
<section id="history" data-live aria-label="Handed-back conversations">
${
  entries.length === 0
    ? html`<p>No conversation has been handed back yet.</p>`
    : html`<ul class="waiting">${entries.map((entry) => row(root, entry, chatbots.get(entry.conversation.bot) ?? entry.conversation.bot, accounts))}</ul>`
}
</section>`,
  });
}

function row(root: string, entry: HandBack, chatbot: string, accounts: AccountNames): Html {
  const by = operatorLabel({ name: entry.by, ...entry }, accounts);
  const claimedBy = entry.claimedBy
    ? operatorLabel({ name: entry.claimedBy, account: entry.claimedByAccount, via: entry.claimedVia }, accounts)
    : 'nobody';
  return html`<li>
<a href="${conversationPath(root, formatConversationId(entry.conversation))}">${conversationTitle(entry.user, entry.conversation.platform)}</a>
<dl>
<dt>Chatbot</dt><dd>${chatbot}</dd>
<dt>Handed back</dt><dd>${time(entry.at)} by ${by}, after ${duration(entry.at - entry.since)} with a person</dd>
<dt>Claimed by</dt><dd>${claimedBy}</dd>
</dl>
</li>`;
}
