/** A conversation's transcript as the inbox shows it: every message as text, events as notes, files through the gateway. */
import { describeAttachment, type TranscriptEntry, type TranscriptFile } from '../../../gateway/index.js';
import { conversationPath, platformName, time, userName } from './format.js';
import { html, type Html } from '../../../format/index.js';

/** Who said it, as a reader names them. */
export function speakerOf(entry: TranscriptEntry, chatbot: string): string {
  switch (entry.role) {
    case 'user':
      return userName(entry.user);
    case 'bot':
      return `${chatbot} (assistant)`;
    case 'operator': {
      const what = [entry.note ? 'a note' : 'operator', entry.via ? `in ${platformName(entry.via)}` : undefined];
      return `${entry.operator ?? 'An operator'} (${what.filter(Boolean).join(', ')})`;
    }
    case 'system':
      return 'chatbridge';
  }
}

/**
 * The transcript region: a role="log" whose children are the entries, one element each, so that
 * a new message is one appended child (the page script appends it; a screen reader announces it).
 * Entries are not list items: role="log" on a list would orphan them.
 */
export function transcriptLog(root: string, id: string, entries: readonly TranscriptEntry[], chatbot: string): Html {
  const empty = html`<p class="empty">The transcript is empty (it is kept for a limited time).</p>`;
  return html`<div id="transcript" class="transcript" role="log" aria-label="Transcript" data-live>
${entries.length === 0 ? empty : entries.map((entry) => entryOf(root, id, entry, chatbot))}
</div>`;
}

function entryOf(root: string, id: string, entry: TranscriptEntry, chatbot: string): Html {
  if (entry.role === 'system') {
    return html`<p class="entry event">${time(entry.at)} ${entry.text}</p>`;
  }
  const files = entry.files ?? [];
  // An entry written before files were kept has only their descriptions.
  const described = files.length === 0 ? (entry.attachments ?? []) : [];
  // A note is for operators only: the page sets it apart from what the user was sent.
  return html`<article class="entry ${entry.role}${entry.note ? ' note' : ''}">
<p class="meta"><span class="speaker">${speakerOf(entry, chatbot)}</span> ${time(entry.at)}</p>
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
