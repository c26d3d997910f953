/** /inbox/operators, an admin's page: the operator accounts, their sessions, adding and changing them, the audit log. */
import type { AccountSessionInfo, AuditEntry, OperatorAccount } from '../../operators/index.js';
import type { InboxSession } from '../sessions.js';
import { html, type Html } from '../../../format/index.js';
import { alert, csrfField, inboxPage } from './layout.js';
import { time } from './format.js';

export interface OperatorRow {
  account: OperatorAccount;
  sessions: readonly AccountSessionInfo[];
}

export interface OperatorsPageData {
  operators: readonly OperatorRow[];
  /** The configured bots' ids, for the chatbots an operator sees. */
  bots: readonly string[];
  audit: readonly AuditEntry[];
  error?: string;
  /** What the add form held when it came back with an error. */
  draft?: { email?: string; name?: string };
}

export function operatorsPage(root: string, session: InboxSession, data: OperatorsPageData): string {
  return inboxPage({
    root,
    title: 'Operators',
    session,
    current: 'operators',
    main: html`<h1>Operators</h1>
<p>The people who answer users. An operator answers, claims and hands back the conversations of their chatbots
and reads their leads; an admin also manages operators and sees every chatbot.
A change that takes something away signs them out everywhere.</p>
${alert(data.error)}
${
  data.operators.length === 0
    ? html`<p>No operator account yet: add the first below.</p>`
    : data.operators.map((row) => operatorSection(root, session, row, data.bots))
}
${addForm(root, session, data)}
<h2 id="audit">Audit log</h2>
${auditTable(data.audit)}`,
  });
}

function operatorSection(root: string, session: InboxSession, row: OperatorRow, bots: readonly string[]): Html {
  const { account } = row;
  const base = `${root}/operators/${encodeURIComponent(account.email)}`;
  const headingId = `operator-${account.id}`;
  return html`<section class="operator" aria-labelledby="${headingId}">
<h2 id="${headingId}">${account.name} <small>${account.email}</small></h2>
<dl>
<dt>Role</dt><dd>${account.role}</dd>
<dt>Chatbots</dt><dd>${account.role === 'admin' || account.bots === 'all' ? 'all' : account.bots.join(', ')}</dd>
${account.telegramIds.length > 0 ? html`<dt>Telegram ids</dt><dd>${account.telegramIds.join(', ')}</dd>` : ''}
</dl>
<form method="post" action="${base}/role" class="inline">
${csrfField(session)}
<label for="role-${account.id}">Role of ${account.name}</label>
<select id="role-${account.id}" name="role">${roleOptions(account.role)}</select>
<button type="submit">Change role</button>
</form>
${account.role === 'admin' ? '' : botsForm(base, session, account, bots)}
<form method="post" action="${base}/remove" class="inline">
${csrfField(session)}
<button type="submit" class="danger">Remove ${account.name}</button>
</form>
<h3>Signed in</h3>
${
  row.sessions.length === 0
    ? html`<p>No session.</p>`
    : html`<div class="table-wrap"><table class="leads">
<thead><tr><th scope="col">Device</th><th scope="col">Address</th><th scope="col">Signed in</th><th scope="col">Last seen</th>
<th scope="col"><span class="visually-hidden">End</span></th></tr></thead>
<tbody>${row.sessions.map(
        (
          each,
        ) => html`<tr><td>${each.device || 'unknown'}</td><td>${each.address}</td><td>${time(each.signedInAt)}</td><td>${time(each.lastSeenAt)}</td>
<td><form method="post" action="${base}/sessions/${each.id}/end">${csrfField(session)}<button type="submit">End session</button></form></td></tr>`,
      )}</tbody></table></div>`
}
</section>`;
}

function botsForm(base: string, session: InboxSession, account: OperatorAccount, bots: readonly string[]): Html {
  return html`<form method="post" action="${base}/bots" class="inline">
${csrfField(session)}
<fieldset><legend>Chatbots ${account.name} sees</legend>
${bots.map(
  (bot) =>
    html`<label><input type="checkbox" name="bots" value="${bot}"${seesBot(account, bot) ? html` checked` : ''}> ${bot}</label> `,
)}
</fieldset>
<button type="submit">Save chatbots</button>
</form>`;
}

function addForm(root: string, session: InboxSession, data: OperatorsPageData): Html {
  return html`<h2>Add an operator</h2>
<form method="post" action="${root}/operators" class="stacked">
${csrfField(session)}
<label for="new-email">E-mail address</label>
<input type="email" id="new-email" name="email" required maxlength="254" value="${data.draft?.email ?? ''}">
<label for="new-name">Display name</label>
<input type="text" id="new-name" name="name" required maxlength="60" value="${data.draft?.name ?? ''}">
<label for="new-role">Role</label>
<select id="new-role" name="role">${roleOptions('operator')}</select>
<fieldset><legend>Chatbots they see (none ticked: all)</legend>
${data.bots.map((bot) => html`<label><input type="checkbox" name="bots" value="${bot}"> ${bot}</label> `)}
</fieldset>
<button type="submit">Add operator</button>
</form>`;
}

function roleOptions(current: OperatorAccount['role']): Html[] {
  return (['operator', 'admin'] as const).map(
    (role) => html`<option value="${role}"${role === current ? html` selected` : ''}>${role}</option>`,
  );
}

function auditTable(entries: readonly AuditEntry[]): Html {
  if (entries.length === 0) return html`<p>Nothing yet.</p>`;
  return html`<div class="table-wrap"><table class="leads">
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Whom</th>
<th scope="col">Detail</th><th scope="col">From</th></tr></thead>
<tbody>${entries.map(
    (entry) =>
      html`<tr><td>${time(entry.at)}</td><td>${entry.action.replaceAll('-', ' ')}</td><td>${entry.actor}</td>
<td>${entry.target ?? ''}</td><td>${entry.detail ?? ''}</td><td>${entry.address ?? ''}</td></tr>`,
  )}</tbody></table></div>`;
}

function seesBot(account: OperatorAccount, bot: string): boolean {
  return account.bots === 'all' || account.bots.includes(bot);
}
