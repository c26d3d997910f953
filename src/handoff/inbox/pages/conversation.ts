/** /inbox/conversations/:id: one conversation, its status with Claim and Hand back, the transcript, the reply box. */
import { formatConversationId } from '../../conversation-id.js';
import {
  claimant,
  sameOperator,
  type OpenedConversation,
  type OperatorSignature,
  type PauseRecord,
} from '../../pause/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, conversationTitle, duration, platformName, time } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { alert, csrfField, inboxPage } from './layout.js';
import { operatorLabel, transcriptLog, type AccountNames } from './transcript.js';

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
  accounts: AccountNames = new Map(),
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
${status(root, session, id, opened, now, accounts)}
<h2 id="transcript-heading">Transcript</h2>
${transcriptLog(root, id, opened.transcript, opened.chatbot, accounts)}
${alert(view.error)}
${opened.pause ? replyForm(root, session, id, opened.conversation.platform, view.draft) : ''}`,
  });
}

/** Who the session's operator is, as their actions are recorded: an account session with its account. */
export function signatureOf(session: InboxSession): OperatorSignature {
  return { name: session.operator, ...(session.account ? { account: session.account.id } : {}) };
}

/** The status region: who waits, since when, who claimed it, and the actions while it waits. */
function status(
  root: string,
  session: InboxSession,
  id: string,
  opened: OpenedConversation,
  now: number,
  accounts: AccountNames,
): Html {
  const { pause } = opened;
  const holder = claimant(pause?.claim);
  const mine = holder !== null && sameOperator(holder, signatureOf(session));
  const path = conversationPath(root, id);
  const handedBack = html`<dt>Status</dt><dd>Handed back: the assistant answers this conversation. It is no longer in the inbox.</dd>`;
  return html`<section id="conversation-status" class="status" data-live aria-label="Status">
<dl>
<dt>Chatbot</dt><dd>${opened.chatbot}</dd>
<dt>Platform</dt><dd>${platformName(opened.conversation.platform)}</dd>
<dt>Conversation</dt><dd><code>${id}</code></dd>
${pause ? waitingFacts(pause, now, accounts) : handedBack}
</dl>
${
  pause
    ? html`<div class="actions">
${mine ? '' : claimForm(path, session, pause)}
<form method="post" action="${path}/hand-back">${csrfField(session)}<button type="submit">Hand back</button></form>
</div>`
    : ''
}
</section>`;
}

/**
 * Claim, carrying whom the page shows holding it (name, account, platform): a claim made meanwhile is refused, not
 * silently taken over, even by someone of the same name.
 */
function claimForm(path: string, session: InboxSession, pause: PauseRecord): Html {
  const holder = html`<input type="hidden" name="holder" value="${pause.claim?.by ?? ''}">
<input type="hidden" name="holderAccount" value="${pause.claim?.account ?? ''}">
<input type="hidden" name="holderVia" value="${pause.claim?.via ?? ''}">`;
  return html`<form method="post" action="${path}/claim">${csrfField(session)}${holder}<button type="submit">Claim</button></form>`;
}

function waitingFacts(pause: PauseRecord, now: number, accounts: AccountNames): Html {
  const claimedBy = pause.claim
    ? html`${operatorLabel({ name: pause.claim.by, ...pause.claim }, accounts)} (${time(pause.claim.at)})`
    : 'nobody yet';
  return html`<dt>Status</dt><dd>Waiting for a person for ${duration(now - pause.since)} (since ${time(pause.since)})</dd>
<dt>Why</dt><dd>${pause.reason}</dd>
<dt>Claimed by</dt><dd>${claimedBy}</dd>
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
