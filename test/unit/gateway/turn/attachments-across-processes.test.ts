/**
 * "Nothing a user sent is lost": a file accepted by one gateway process and answered
 * by another (after a crash or a stop, or behind a load balancer) is fetched again
 * through the serving adapter's `restoreAttachment`, from the `ref` kept in the queue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AttachmentTooLargeError, AttachmentUnavailableError } from '../../../../src/gateway/media/errors.js';
import type { Step } from '../../../../src/gateway/turn/pipeline.js';
import type { InboundAttachment } from '../../../../src/contract.js';
import { MemoryStateStore } from '../../../../src/state/index.js';
import { startEchoService } from '../../../support/scripted-service.js';
import { startHarness, type Harness } from '../support/harness.js';
import { MemoryPlatform } from '../../../../fakes/memory/index.js';
import { PLAIN_CAPABILITIES, RecordingAdapter, eventually } from '../support/recording-adapter.js';

const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/**
 * A platform whose files live on its side (like Telegram's file_id): any process can
 * restore an attachment from its ref. Records which refs were restored and how often
 * the accepting process's own closure was used.
 */
class RefAdapter extends RecordingAdapter {
  readonly restored: string[] = [];
  liveFetches = 0;

  constructor(
    private readonly files: Map<string, Uint8Array>,
    screen: MemoryPlatform,
  ) {
    super('main', 'fakechat', PLAIN_CAPABILITIES, screen);
  }

  /** An image the user sent, as this process's adapter announces it (`withRef: false`: a platform without refs). */
  photo(ref: string, withRef = true): InboundAttachment {
    const bytes = this.files.get(ref);
    return {
      kind: 'image',
      mimeType: 'image/png',
      fileName: 'dot.png',
      size: bytes?.length,
      ...(withRef ? { ref } : {}),
      fetch: async () => {
        this.liveFetches++;
        return bytes ?? new Uint8Array();
      },
    };
  }

  override restoreAttachment(ref: string, info: Omit<InboundAttachment, 'fetch' | 'ref'>): InboundAttachment {
    this.restored.push(ref);
    return {
      ...info,
      ref,
      fetch: async ({ maxBytes }) => {
        const bytes = this.files.get(ref);
        if (!bytes) throw new AttachmentUnavailableError(`no file ${ref}`);
        if (bytes.length > maxBytes) throw new AttachmentTooLargeError(maxBytes, bytes.length);
        return bytes;
      },
    };
  }
}

/** Holds every turn of process A until A stops, then lets the stop cut it off (so the message stays queued). */
function holdUntilStopped(reached: () => void): Step {
  return (ctx) =>
    new Promise<void>((_resolve, reject) => {
      reached();
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
    });
}

describe('attachments of a message answered by another gateway process', () => {
  const running: Harness[] = [];
  afterEach(async () => {
    for (const harness of running.splice(0)) await harness.stop();
  });

  async function twoProcesses() {
    const state = new MemoryStateStore({ prefix: 'gw:', checkSlots: true });
    const service = await startEchoService();
    const files = new Map([['file-1', PNG]]);
    const screen = new MemoryPlatform({ name: 'fakechat' });
    const options = { state, service, settings: { EnableUploadImage: true }, policy: { stopGraceMs: 50 } };
    const a = await startHarness({ ...options, adapter: new RefAdapter(files, screen) });
    running.push(a);
    const b = await startHarness({ ...options, adapter: new RefAdapter(files, screen) });
    running.push(b);
    let reached!: () => void;
    const held = new Promise<void>((resolve) => {
      reached = resolve;
    });
    a.gateway.pipeline.use('beforeCommands', holdUntilStopped(reached));
    return { a, b, service, held, adapterA: a.adapter as RefAdapter, adapterB: b.adapter as RefAdapter };
  }

  it('uploads the file from its ref in the process that takes over, and never asks to send it again', async () => {
    const { a, b, service, held, adapterA, adapterB } = await twoProcesses();
    await adapterA.say('c1', 'what is this?', { attachments: [adapterA.photo('file-1')] });
    await held;
    await a.gateway.stop();
    expect(await b.gateway.sweep()).toBe(1);

    await eventually(() => expect(adapterB.textsIn('c1')).toEqual(['You said: what is this? (with 1 Image file)']));
    // The bytes restored from the ref are what reached the service, and the question names that file.
    expect(service.uploads.map((upload) => upload.bytes)).toEqual([PNG]);
    expect(service.asks[0]).toMatchObject({ chatAskType: 'Image', fileIds: [service.uploads[0]!.fileId] });
    expect(adapterB.restored).toEqual(['file-1']);
    expect(adapterA.liveFetches).toBe(0);
  });

  it('asks the user to send the file again when the attachment has no ref, and answers the caption without it', async () => {
    const { a, b, service, held, adapterA, adapterB } = await twoProcesses();
    await adapterA.say('c1', 'what is this?', { attachments: [adapterA.photo('file-1', false)] });
    await held;
    await a.gateway.stop();
    expect(await b.gateway.sweep()).toBe(1);

    await eventually(() => expect(adapterB.textsIn('c1')).toHaveLength(2));
    expect(adapterB.textsIn('c1')[0]).toMatch(/send it again\. I'm answering your message without it\.$/);
    expect(adapterB.textsIn('c1')[1]).toBe('You said: what is this?');
    expect(service.uploads).toEqual([]);
    expect(adapterB.restored).toEqual([]);
  });

  it('uses the live closure, not the ref, in the process that accepted the message', async () => {
    const { b, service } = await twoProcesses();
    const adapterB = b.adapter as RefAdapter;
    await adapterB.say('c2', 'and this?', { attachments: [adapterB.photo('file-1')] });
    await eventually(() => expect(adapterB.textsIn('c2')).toEqual(['You said: and this? (with 1 Image file)']));
    expect(adapterB.liveFetches).toBe(1);
    expect(adapterB.restored).toEqual([]);
    expect(service.uploads).toHaveLength(1);
  });
});
