import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../src/gateway/media/errors.js';
import type { ConversationRef, Inbound, InboundAttachment } from '../../src/gateway/types.js';

export const CONSOLE_USER = { id: 'console', name: process.env.USER ?? 'you', handle: 'console' };

/** `:file <path> [caption]` attaches a local file (the core sniffs what it is). */
async function localAttachment(path: string): Promise<InboundAttachment> {
  const info = await stat(path);
  // The absolute path is the ref: another process on this machine can read the file again.
  return restoreLocalAttachment(resolve(path), { kind: 'document', size: info.size, fileName: basename(path) });
}

/**
 * A local file as an attachment, in any process that sees the same disk. The size is
 * checked again when fetched: the file may have changed (or gone) since it was sent.
 */
export function restoreLocalAttachment(path: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>): InboundAttachment {
  return {
    ...info,
    ref: path,
    async fetch({ maxBytes }) {
      const size = await stat(path).then((s) => s.size, (error: unknown) => {
        throw new AttachmentUnavailableError(`The file ${path} can no longer be read; send it again.`, { cause: error });
      });
      if (size > maxBytes) throw new AttachmentTooLargeError(maxBytes, size);
      return new Uint8Array(await readFile(path));
    },
  };
}

export async function lineToInbound(line: string, conversation: ConversationRef, sequence: number, pressed?: { label: string; value: string }): Promise<Inbound> {
  const base = {
    conversation,
    user: CONSOLE_USER,
    isGroup: false,
    addressed: true,
    platformMessageId: `${process.pid}-${Date.now()}-${sequence}`,
    sentAt: Date.now(),
  };
  if (pressed) return { ...base, text: pressed.label, attachments: [], action: { id: String(sequence), value: pressed.value } };
  const file = /^:file\s+(\S+)\s*(.*)$/.exec(line);
  if (file) return { ...base, text: file[2] ?? '', attachments: [await localAttachment(file[1]!)] };
  return { ...base, text: line, attachments: [] };
}
