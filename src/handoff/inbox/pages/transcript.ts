/** A conversation's transcript as the inbox shows it: every message as text, events as notes, files through the gateway. */
import { describeAttachment, type TranscriptEntry, type TranscriptFile } from '../../../gateway/index.js';
import { conversationPath, platformName, time, userName } from './format.js';
import { html, type Html } from '../../../format/index.js';

/** The operator accounts' display names as they are now, by account id: read once for a page (OperatorDesk.accountNames). */
export type AccountNames = ReadonlyMap<string, string>;

/** Who an operator is, as a record keeps them (OperatorSignature): their name then, their account, their platform. */
export interface RecordedOperator {
  name: string;
  account?: string;
  via?: string;
}

/**
 * An operator as the inbox names them: an account's name as it is now (the name then, should the account be gone); a
 * person of an operators' platform whom no account names, with their platform and that; anyone else (the admin
 * token's sessions, a handoff e-mail's link, records from before accounts) by the name kept.
 */
export function operatorLabel(who: RecordedOperator, accounts: AccountNames): string {
  if (who.account) return accounts.get(who.account) ?? who.name;
  return who.via ? `${who.name} (${platformName(who.via)}, no operator account)` : who.name;
}

/** Who said it, as a reader names them. */
export function speakerOf(entry: TranscriptEntry, chatbot: string, accounts: AccountNames = new Map()): string {
  switch (entry.role) {
    case 'user':
      return userName(entry.user);
    case 'bot':
      return `${chatbot} (assistant)`;
    case 'operator': {
      const what = [
        entry.note ? 'a note' : 'operator',
        entry.via ? `in ${platformName(entry.via)}` : undefined,
        entry.via && !entry.account ? 'no operator account' : undefined,
      ];
      const name = entry.operator && entry.account ? (accounts.get(entry.account) ?? entry.operator) : entry.operator;
      return `${name ?? 'An operator'} (${what.filter(Boolean).join(', ')})`;
    }
    case 'system':
      return 'chatbridge';
  }
}

/**
 * A handoff moment's text with its operator named as operatorLabel does. The gateway wrote their name first ("Sam
 * claimed …", "Sam took … over") or last ("Handed back to the assistant by Sam."): only there is it replaced.
 */
export function eventText(entry: TranscriptEntry, accounts: AccountNames): string {
  const { operator, text } = entry;
  if (!operator || (!entry.account && !entry.via)) return text;
  const label = operatorLabel({ name: operator, account: entry.account, via: entry.via }, accounts);
  if (text.startsWith(`${operator} `)) return label + text.slice(operator.length);
  const last = ` ${operator}.`;
  return text.endsWith(last) ? `${text.slice(0, -last.length)} ${label}.` : text;
}

/**
 * The transcript region: a role="log" whose children are the entries, one element each, so that
 * a new message is one appended child (the page script appends it; a screen reader announces it).
 * Entries are not list items: role="log" on a list would orphan them.
 */
export function transcriptLog(
  root: string,
  id: string,
  entries: readonly TranscriptEntry[],
  chatbot: string,
  accounts: AccountNames = new Map(),
): Html {
  const empty = html`<p class="empty">The transcript is empty (it is kept for a limited time).</p>`;
  return html`<div id="transcript" class="transcript" role="log" aria-label="Transcript" data-live>
${entries.length === 0 ? empty : entries.map((entry) => entryOf(root, id, entry, chatbot, accounts))}
</div>`;
}

function entryOf(root: string, id: string, entry: TranscriptEntry, chatbot: string, accounts: AccountNames): Html {
  if (entry.role === 'system') {
    return html`<p class="entry event">${time(entry.at)} ${eventText(entry, accounts)}</p>`;
  }
  const files = entry.files ?? [];
  // An entry written before files were kept has only their descriptions.
  const described = files.length === 0 ? (entry.attachments ?? []) : [];
  // A note is for operators only: the page sets it apart from what the user was sent.
  return html`<article class="entry ${entry.role}${entry.note ? ' note' : ''}">
<p class="meta"><span class="speaker">${speakerOf(entry, chatbot, accounts)}</span> ${time(entry.at)}</p>
${entry.text ? html`<p class="text">${entry.text}</p>` : ''}
${files.length > 0 ? html`<ul class="files">${files.map((file, n) => fileOf(root, id, entry, file, n))}</ul>` : ''}
${described.length > 0 ? html`<ul class="files">${described.map((text) => html`<li>${text} (not kept)</li>`)}</ul>` : ''}
</article>`;
}

function fileOf(root: string, id: string, entry: TranscriptEntry, file: TranscriptFile, n: number): Html {
  const description = describeAttachment(file);
  if (file.ref === undefined)
    return html`<li>${description} (the platform keeps no copy the gateway can fetch again)</li>`;
  const href = `${conversationPath(root, id)}/files/${entry.at}/${n}`;
  const name = file.fileName ?? `${file.kind} ${n + 1}`;
  if (file.kind === 'image' || file.kind === 'sticker') {
    const alt = `${file.kind === 'image' ? 'Photo' : 'Sticker'} from ${userName(entry.user)}: ${name}`;
    return html`<li><a href="${href}"><img src="${href}" alt="${alt}" class="photo"></a></li>`;
  }
  return html`<li><a href="${href}" download>${description}</a></li>`;
}
