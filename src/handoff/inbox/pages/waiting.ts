/** /inbox: the conversations waiting for a person, newest first. */
import type { TranscriptEntry } from '../../../gateway/index.js';
import { formatConversationId } from '../../conversation-id.js';
import type { WaitingConversation, WaitingList } from '../../pause/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, conversationTitle, duration, excerpt, platformName, time } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { alert, inboxPage } from './layout.js';
import { speakerOf } from './transcript.js';

export function waitingPage(session: InboxSession, list: WaitingList, now: number, error?: string): string {
  const more = list.total - list.shown.length;
  const elsewhere = html`answer these first, or use <code>chatbridge handoff list</code>`;
  const andMore = html`<p class="more">And ${more.toLocaleString('en')} more, waiting longer: ${elsewhere}.</p>`;
  return inboxPage({
    title: 'Waiting',
    session,
    current: 'waiting',
    events: '/inbox/events',
    main: html`<h1>Waiting for a person</h1>
${alert(error)}
<section id="waiting" data-live aria-labelledby="waiting-count">
<p id="waiting-count">${count(list.total)}</p>
${list.shown.length > 0 ? html`<ul class="waiting">${list.shown.map((item) => row(item, now))}</ul>` : ''}
${more > 0 ? andMore : ''}
</section>`,
  });
}

function count(total: number): string {
  if (total === 0) return 'Nobody is waiting. New conversations appear here as users ask for a person.';
  return total === 1 ? '1 conversation is waiting.' : `${total.toLocaleString('en')} conversations are waiting.`;
}

function row({ pause, chatbot, last }: WaitingConversation, now: number): Html {
  const { conversation } = pause;
  const lastMessage = last ? html`${speakerOf(last, chatbot)}: ${excerpt(wordsOf(last))}` : '(none kept)';
  return html`<li>
<a href="${conversationPath(formatConversationId(conversation))}">${conversationTitle(pause.user, conversation.platform)}</a>
<dl>
<dt>Chatbot</dt><dd>${chatbot}</dd>
<dt>Platform</dt><dd>${platformName(conversation.platform)}</dd>
<dt>Waiting for</dt><dd>${duration(now - pause.since)} (since ${time(pause.since)})</dd>
<dt>Last message</dt><dd>${lastMessage}</dd>
<dt>Claimed by</dt><dd>${pause.claim ? pause.claim.by : 'nobody yet'}</dd>
</dl>
</li>`;
}

/** What an entry said: its text, or the files it carried. */
function wordsOf(entry: TranscriptEntry): string {
  return entry.text || (entry.attachments?.length ? `(${entry.attachments.join(', ')})` : '');
}
