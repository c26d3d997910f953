/** /inbox/conversations/:id: one conversation, its status with Claim and Hand back, the transcript, the reply box. */
import { formatConversationId } from '../../conversation-id.js';
import type { OpenedConversation, PauseRecord } from '../../pause/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, conversationTitle, duration, platformName, time } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { alert, csrfField, inboxPage } from './layout.js';
import { transcriptLog } from './transcript.js';

export interface ConversationView {
  /** The platform's reason a reply failed, a refused action. */
  error?: string;
  /** The reply that failed, so that the operator need not type it again. */
  draft?: string;
}

export function conversationPage(
  root: string,
  session: InboxSession,
  opened: OpenedConversation,
  now: number,
  view: ConversationView = {},
): string {
  const id = formatConversationId(opened.conversation);
  const user = opened.pause?.user ?? opened.transcript.findLast((entry) => entry.role === 'user')?.user;
  const title = conversationTitle(user, opened.conversation.platform);
  return inboxPage({
    root,
    title,
    session,
    current: 'waiting',
    events: `${root}/events?conversation=${encodeURIComponent(id)}`,
    main: html`<h1>${title}</h1>
${status(root, session, id, opened, now)}
<h2 id="transcript-heading">Transcript</h2>
${transcriptLog(root, id, opened.transcript, opened.chatbot)}
${alert(view.error)}
${opened.pause ? replyForm(root, session, id, opened.conversation.platform, view.draft) : ''}`,
  });
}

/** The status region: who waits, since when, who claimed it, and the actions while it waits. */
function status(root: string, session: InboxSession, id: string, opened: OpenedConversation, now: number): Html {
  const { pause } = opened;
  const path = conversationPath(root, id);
  return html`<section id="conversation-status" class="status" data-live aria-label="Status">
<dl>
<dt>Chatbot</dt><dd>${opened.chatbot}</dd>
<dt>Platform</dt><dd>${platformName(opened.conversation.platform)}</dd>
<dt>Conversation</dt><dd><code>${id}</code></dd>
${pause ? waitingFacts(pause, now) : html`<dt>Status</dt><dd>Handed back: the assistant answers this conversation. It is no longer in the inbox.</dd>`}
</dl>
${
  pause
    ? html`<div class="actions">
${pause.claim?.by === session.operator ? '' : claimForm(path, session, pause)}
<form method="post" action="${path}/hand-back">${csrfField(session)}<button type="submit">Hand back</button></form>
</div>`
    : ''
}
</section>`;
}

/** Claim, carrying whom the page shows holding it: a claim made meanwhile is refused, not silently taken over. */
function claimForm(path: string, session: InboxSession, pause: PauseRecord): Html {
  const holder = html`<input type="hidden" name="holder" value="${pause.claim?.by ?? ''}">`;
  return html`<form method="post" action="${path}/claim">${csrfField(session)}${holder}<button type="submit">Claim</button></form>`;
}

function waitingFacts(pause: PauseRecord, now: number): Html {
  return html`<dt>Status</dt><dd>Waiting for a person for ${duration(now - pause.since)} (since ${time(pause.since)})</dd>
<dt>Why</dt><dd>${pause.reason}</dd>
<dt>Claimed by</dt><dd>${pause.claim ? html`${pause.claim.by} (${time(pause.claim.at)})` : 'nobody yet'}</dd>
<dt>The assistant answers again</dt><dd>${time(pause.expiresAt)}, unless handed back sooner</dd>`;
}

function replyForm(root: string, session: InboxSession, id: string, platform: string, draft: string | undefined): Html {
  return html`<form method="post" action="${conversationPath(root, id)}/messages" id="reply-form" class="reply">
${csrfField(session)}
<label for="reply">Reply</label>
<textarea name="text" id="reply" rows="3" required maxlength="20000" aria-describedby="reply-hint">${draft ?? ''}</textarea>
<p class="hint" id="reply-hint">Enter sends, Shift+Enter starts a new line. The user reads it on ${platformName(platform)}.</p>
<button type="submit">Send</button>
</form>`;
}
