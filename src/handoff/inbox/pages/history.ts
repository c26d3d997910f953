/** /inbox/history: the conversations handed back to the assistant, newest first. */
import { formatConversationId } from '../../conversation-id.js';
import type { HandBack } from '../../pause/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, conversationTitle, duration, time } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { inboxPage } from './layout.js';

export function historyPage(
  root: string,
  session: InboxSession,
  entries: readonly HandBack[],
  chatbots: ReadonlyMap<string, string>,
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
    : html`<ul class="waiting">${entries.map((entry) => row(root, entry, chatbots.get(entry.conversation.bot) ?? entry.conversation.bot))}</ul>`
}
</section>`,
  });
}

function row(root: string, entry: HandBack, chatbot: string): Html {
  return html`<li>
<a href="${conversationPath(root, formatConversationId(entry.conversation))}">${conversationTitle(entry.user, entry.conversation.platform)}</a>
<dl>
<dt>Chatbot</dt><dd>${chatbot}</dd>
<dt>Handed back</dt><dd>${time(entry.at)} by ${entry.by}, after ${duration(entry.at - entry.since)} with a person</dd>
<dt>Claimed by</dt><dd>${entry.claimedBy ?? 'nobody'}</dd>
</dl>
</li>`;
}
