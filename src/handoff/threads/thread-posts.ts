/**
 * What of the transcript a thread is told: the user's messages (text as text, files as files
 * within the door's limit, a larger one as a link through the gateway), and what operators said
 * through the other doors (the inbox, the other platform), notes marked. The bot's words and the
 * handoff's moments are the card's; what was written in this door is already there.
 */
import { fileTypeFromBuffer } from 'file-type';
import {
  AttachmentTooLargeError,
  type ConversationRef,
  type OperatorDoor,
  type ThreadFile,
  type ThreadPost,
} from '../../contract.js';
import { escapeMarkdown } from '../../format/index.js';
import type { Gateway, TranscriptEntry, TranscriptFile } from '../../gateway/index.js';
import { formatConversationId } from '../conversation-id.js';

export interface ThreadPostContext {
  gateway: Gateway;
  conversation: ConversationRef;
  door: Pick<OperatorDoor, 'platform' | 'maxFileBytes'>;
  /** The gateway's public base URL: a file too large for the door is linked through the inbox. */
  baseUrl: string;
  /** The user's platform in words. */
  platformName(platform: string): string;
}

/** Whether the thread on `door` is told of this entry. */
export function belongsInThread(entry: TranscriptEntry, door: string): boolean {
  if (entry.role === 'user') return true;
  return entry.role === 'operator' && entry.via !== door;
}

export async function threadPostOf(entry: TranscriptEntry, context: ThreadPostContext): Promise<ThreadPost> {
  if (entry.role === 'operator') {
    const who = escapeMarkdown(entry.operator ?? 'An operator');
    const where = entry.via ? context.platformName(entry.via) : 'the inbox';
    const files = entry.attachments?.length ? `\n[${escapeMarkdown(entry.attachments.join(', '))}]` : '';
    const said = `${escapeMarkdown(entry.text)}${files}`;
    return entry.note
      ? { markdown: `📝 **${who}** (a note, in ${where}): ${said}` }
      : { markdown: `**${who}** (in ${where}): ${said}` };
  }
  const files: ThreadFile[] = [];
  const notes: string[] = [];
  for (const [n, file] of (entry.files ?? []).entries()) {
    const fetched = await fetchUserFile(entry, file, n, context);
    if ('bytes' in fetched) files.push(fetched);
    else notes.push(fetched.note);
  }
  // Files the transcript describes without keeping (an older entry, a platform with no refs).
  const described = entry.files ? [] : (entry.attachments ?? []).map((text) => `📎 ${escapeMarkdown(text)}`);
  const markdown = [escapeMarkdown(entry.text), ...notes, ...described].filter((line) => line.trim() !== '').join('\n');
  return { markdown, ...(files.length > 0 ? { files } : {}) };
}

async function fetchUserFile(
  entry: TranscriptEntry,
  file: TranscriptFile,
  n: number,
  context: ThreadPostContext,
): Promise<ThreadFile | { note: string }> {
  const name = file.fileName ?? `${file.kind}-${n + 1}`;
  const label = `📎 ${escapeMarkdown(name)}`;
  const { ref, ...info } = file;
  const attachment = ref === undefined ? undefined : context.gateway.restoreAttachment(context.conversation, ref, info);
  if (!attachment)
    return {
      note: `${label}: ${context.platformName(context.conversation.platform)} keeps no copy the gateway can fetch.`,
    };
  try {
    const bytes = await attachment.fetch({ maxBytes: context.door.maxFileBytes });
    // Some platforms name no type (a Telegram photo): read from the bytes, so a photo goes as a photo.
    const mimeType = file.mimeType ?? (await fileTypeFromBuffer(bytes))?.mime;
    return { bytes, fileName: name, ...(mimeType ? { mimeType } : {}) };
  } catch (error) {
    if (error instanceof AttachmentTooLargeError) {
      const id = encodeURIComponent(formatConversationId(context.conversation));
      const url = `${context.baseUrl.replace(/\/+$/, '')}/inbox/conversations/${id}/files/${entry.at}/${n}`;
      return { note: `${label}: too large to post here, [open it through the gateway](${url}).` };
    }
    return { note: `${label}: the user's platform did not give it (${escapeMarkdown((error as Error).message)}).` };
  }
}
