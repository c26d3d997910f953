import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { AttachmentTooLargeError } from '../../src/gateway/media/errors.js';
import type { ConversationRef, Inbound, InboundAttachment } from '../../src/gateway/types.js';

export const CONSOLE_USER = { id: 'console', name: process.env.USER ?? 'you', handle: 'console' };

/** `:file <path> [caption]` attaches a local file (the core sniffs what it is). */
async function localAttachment(path: string): Promise<InboundAttachment> {
  const info = await stat(path);
  return {
    kind: 'document',
    size: info.size,
    fileName: basename(path),
    async fetch({ maxBytes }) {
      if (info.size > maxBytes) throw new AttachmentTooLargeError(maxBytes, info.size);
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
