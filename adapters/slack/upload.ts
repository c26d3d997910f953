/**
 * A file the bot shares (Slack's upload v2, through web-api's `files.uploadV2`:
 * files.getUploadURLExternal, the bytes POSTed to the URL it gives, then
 * files.completeUploadExternal into a channel, or a thread of it). Used for an operator's
 * file sent to a Slack user (outbound.ts) and for a user's file posted in an operators'
 * thread (operators/door.ts). Needs files:write (and files:read, as Slack asks of v2).
 */
import type { WebClient } from '@slack/web-api';
import { describeSent, PlatformError } from '../../src/contract.js';
import { slackCall } from './errors.js';

/**
 * Largest file the gateway uploads. Slack takes up to 1 GB, but the gateway holds a file's
 * bytes in memory while it sends it (one per conversation at a time, on a small machine),
 * and an operator's or a user's file this large is better handed over as a link, which the
 * handoff does above this. 100 MB covers every photo, voice note, PDF and short video.
 */
export const SLACK_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export interface SlackUpload {
  bytes: Uint8Array;
  fileName: string;
  /** Where it is shared: a channel (or DM), and the root ts of a thread in it. */
  channel: string;
  threadTs?: string;
  /** The message text introducing the file (mrkdwn), shown with it. */
  comment?: string;
}

/** Uploads one file and shares it; resolves to Slack's file id. */
export async function uploadFile(client: WebClient, upload: SlackUpload): Promise<string> {
  const { bytes, fileName, channel, threadTs, comment } = upload;
  if (bytes.byteLength > SLACK_MAX_UPLOAD_BYTES)
    throw new PlatformError(
      `A file of ${bytes.byteLength} bytes is over the ${SLACK_MAX_UPLOAD_BYTES / (1024 * 1024)} MB the gateway uploads to Slack`,
      'too-long',
      undefined,
      { method: 'files.uploadV2', sent: describeSent({ to: channel }) },
    );
  const file = {
    file: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    filename: fileName,
    ...(comment ? { initial_comment: comment } : {}),
  };
  const result = await slackCall(
    'files.uploadV2',
    () =>
      client.files.uploadV2(
        threadTs ? { ...file, channel_id: channel, thread_ts: threadTs } : { ...file, channel_id: channel },
      ),
    describeSent({ to: threadTs ? `${channel}:${threadTs}` : channel, text: comment }),
  );
  // uploadV2 answers one completion per call to files.completeUploadExternal, each with its files.
  const completions = (result as { files?: { files?: { id?: string }[] }[] }).files ?? [];
  const id = completions.flatMap((completion) => completion.files ?? [])[0]?.id;
  if (!id)
    throw new PlatformError('Slack files.completeUploadExternal answered without a file', 'other', undefined, {
      method: 'files.completeUploadExternal',
    });
  return id;
}
