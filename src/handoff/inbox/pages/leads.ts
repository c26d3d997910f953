/** /inbox/leads: a day's leads of the chatbots the operator may see, one table each, with the day's CSV. */
import { formatConversationId } from '../../conversation-id.js';
import type { Lead, LeadReason, ListingFact } from '../../digests/index.js';
import type { InboxSession } from '../sessions.js';
import { conversationPath, excerpt } from './format.js';
import { html, type Html } from '../../../format/index.js';
import { inboxPage } from './layout.js';

/** One chatbot's leads of the day. */
export interface ChatbotLeads {
  bot: string;
  /** The chatbot's name. */
  chatbot: string;
  /** The zone its day is in. */
  zone: string;
  leads: readonly Lead[];
}

export interface LeadsView {
  day: string;
  previous: string;
  /** None when the day is today or later: no lead is known yet. */
  next?: string;
  /** `?bot=`: the one chatbot asked for; the links keep it. */
  bot?: string;
  chatbots: readonly ChatbotLeads[];
}

const COLUMNS = ['Name', 'Handle or number', 'Platform', 'Phones', 'E-mails', 'Listings', 'Last message', 'Why'];

const REASONS: Record<LeadReason, string> = {
  listings: 'asked about listings',
  person: 'asked for a person',
  phone: 'wrote a phone number',
  email: 'wrote an e-mail address',
  contact: 'shared a contact',
};

export function leadsPage(root: string, session: InboxSession, view: LeadsView): string {
  const dayLink = (day: string) => {
    const query = new URLSearchParams({ day, ...(view.bot ? { bot: view.bot } : {}) });
    return `${root}/leads?${query.toString()}`;
  };
  const csv = `${root}/leads.csv?${new URLSearchParams({ day: view.day, ...(view.bot ? { bot: view.bot } : {}) }).toString()}`;
  const total = view.chatbots.reduce((sum, chatbot) => sum + chatbot.leads.length, 0);
  return inboxPage({
    root,
    title: `Leads of ${view.day}`,
    session,
    current: 'leads',
    main: html`<h1>Leads of ${view.day}</h1>
<nav class="days" aria-label="Days">
<a href="${dayLink(view.previous)}" rel="prev">← ${view.previous}</a>
${view.next ? html`<a href="${dayLink(view.next)}" rel="next">${view.next} →</a>` : ''}
</nav>
<p class="hint">The people who showed interest that day (midnight to midnight in the chatbot's time zone): they asked about
listings, asked for a person, wrote a phone number or an e-mail address, or shared a contact.</p>
${
  view.chatbots.length === 0
    ? html`<p>Your sign-in sees no chatbot.</p>`
    : html`<p>${total === 0 ? 'No leads that day.' : html`<a href="${csv}" download>Download the ${total === 1 ? 'lead' : `${total} leads`} as CSV</a>`}</p>
${view.chatbots.map((chatbot) => section(root, chatbot))}`
}`,
  });
}

function section(root: string, chatbot: ChatbotLeads): Html {
  const id = `leads-${chatbot.bot}`;
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${chatbot.chatbot}</h2>
<p class="hint">Bot ${chatbot.bot}; the day in ${chatbot.zone}.</p>
${
  chatbot.leads.length === 0
    ? html`<p>No leads that day.</p>`
    : html`<div class="table-wrap"><table class="leads">
<thead><tr>${COLUMNS.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>
<tbody>
${chatbot.leads.map((lead) => row(root, lead))}
</tbody>
</table></div>`
}
</section>`;
}

function row(root: string, lead: Lead): Html {
  const user = lead.user;
  const name = user?.name ?? user?.handle ?? user?.id ?? 'An unknown user';
  return html`<tr>
<th scope="row"><a href="${conversationPath(root, formatConversationId(lead.conversation))}">${name}</a></th>
<td>${user?.handle ? `@${user.handle.replace(/^@/, '')}` : (user?.id ?? '')}</td>
<td>${lead.platform}</td>
<td>${list(lead.phones)}</td>
<td>${list(lead.emails)}</td>
<td>${list([...lead.listings.map(listing), ...(lead.cities.length > 0 ? [`Homes in ${lead.cities.join(', ')}`] : [])])}</td>
<td>${lead.lastMessage ? excerpt(lead.lastMessage, 200) : ''}</td>
<td>${lead.reasons.map((reason) => REASONS[reason]).join('; ')}</td>
</tr>`;
}

function listing(fact: ListingFact): string {
  const where = [fact.address, fact.city].filter((part) => part !== '').join(', ');
  const details = [fact.mls && `MLS ${fact.mls}`, fact.price].filter((part) => part !== '').join(', ');
  return details ? `${where} (${details})` : where;
}

function list(items: readonly string[]): Html | '' {
  if (items.length === 0) return '';
  return html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
}
