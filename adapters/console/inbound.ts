import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../src/contract.js';
import type { ConversationRef, Inbound, InboundAttachment } from '../../src/contract.js';

export const CONSOLE_USER = { id: 'console', name: process.env.USER ?? 'you', handle: 'console' };

/** `:file <path> [caption]` attaches a local file (the core sniffs what it is). */
async function localAttachment(path: string): Promise<InboundAttachment> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `cannot read ${path} (${error.code === 'ENOENT' ? 'no such file' : (error.code ?? error.message)}).`,
      { cause: error },
    );
  });
  if (!info.isFile()) throw new Error(`${path} is not a file.`);
  // The absolute path is the ref: another process on this machine can read the file again.
  return restoreLocalAttachment(resolve(path), { kind: 'document', size: info.size, fileName: basename(path) });
}

/**
 * A local file as an attachment, in any process that sees the same disk. The size is
 * checked again when fetched: the file may have changed (or gone) since it was sent.
 */
export function restoreLocalAttachment(
  path: string,
  info: Omit<InboundAttachment, 'fetch' | 'ref'>,
): InboundAttachment {
  return {
    ...info,
    ref: path,
    async fetch({ maxBytes }) {
      const size = await stat(path).then(
        (s) => s.size,
        (error: unknown) => {
          throw new AttachmentUnavailableError(`The file ${path} can no longer be read; send it again.`, {
            cause: error,
            reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'failed',
          });
        },
      );
      if (size > maxBytes) throw new AttachmentTooLargeError(maxBytes, size);
      return new Uint8Array(await readFile(path));
    },
  };
}

/** A line the console sends to the chatbot: text, a local file with its caption, or a pressed button. */
export type ConsoleMessage =
  | { kind: 'text'; text: string }
  | { kind: 'file'; path: string; caption: string }
  | { kind: 'press'; button: { label: string; value: string } };

export async function lineToInbound(
  message: ConsoleMessage,
  conversation: ConversationRef,
  sequence: number,
): Promise<Inbound> {
  const base = {
    conversation,
    user: CONSOLE_USER,
    isGroup: false,
    addressed: true,
    platformMessageId: `${process.pid}-${Date.now()}-${sequence}`,
    sentAt: Date.now(),
  };
  switch (message.kind) {
    case 'press':
      return {
        ...base,
        text: message.button.label,
        attachments: [],
        action: { id: String(sequence), value: message.button.value },
      };
    case 'file':
      return { ...base, text: message.caption, attachments: [await localAttachment(message.path)] };
    case 'text':
      return { ...base, text: message.text, attachments: [] };
  }
}
