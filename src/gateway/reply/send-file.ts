/**
 * sendFile: a file the gateway sends to a user outside a turn (an operator's photo or document),
 * with its caption when the platform shows one that long, else the text first as a reply of its
 * own. Retried as a reply is; refused with a PlatformError that says why when the platform sends
 * no files or the file is over its limit.
 */
import {
  PlatformError,
  type Capabilities,
  type ConversationRef,
  type Outbound,
  type SentMessage,
} from '../../contract.js';
import { renderChunks } from '../../format/index.js';
import { retryPlatformCall, type PlatformRetryPolicy } from './platform-retry.js';
import { REPLY_RETRY_POLICY, sendReply } from './send-reply.js';

export interface FileToSend {
  bytes: Uint8Array;
  fileName: string;
  mimeType?: string;
}

export async function sendFile(
  outbound: Outbound,
  capabilities: Capabilities,
  conversation: ConversationRef,
  file: FileToSend,
  /** Standard Markdown said with the file ('' for none). */
  captionMarkdown: string,
  retry: Partial<PlatformRetryPolicy> = {},
): Promise<SentMessage[]> {
  const send = outbound.sendFile?.bind(outbound);
  if (!send) {
    throw new PlatformError(
      `${conversation.platform} cannot send files to a user from the gateway.`,
      'unsupported',
      undefined,
      {
        method: 'sendFile',
      },
    );
  }
  const limit = capabilities.maxUploadBytes;
  if (limit !== undefined && file.bytes.byteLength > limit) {
    throw new PlatformError(
      `${file.fileName} is ${megabytes(file.bytes.byteLength)}; ${conversation.platform} takes files up to ${megabytes(limit)} from a bot.`,
      'too-long',
      undefined,
      { method: 'sendFile' },
    );
  }
  const policy = { ...REPLY_RETRY_POLICY, ...retry };
  const sent: SentMessage[] = [];
  let caption: string | undefined;
  if (captionMarkdown.trim() !== '') {
    const chunks = renderChunks(captionMarkdown, capabilities.markup, capabilities.maxMessageLength);
    const fits = chunks.length === 1 && chunks[0]!.length <= (capabilities.maxCaptionLength ?? 0);
    if (fits) caption = chunks[0];
    else sent.push(...(await sendReply(outbound, capabilities, conversation, captionMarkdown, {}, undefined, retry)));
  }
  const message = { ...file, ...(caption !== undefined ? { caption } : {}) };
  sent.push(await retryPlatformCall(() => send(conversation, message), { policy }));
  return sent;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
