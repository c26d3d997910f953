/**
 * The in-memory platform (fakes/memory) through the conformance suite: the
 * reference the other platforms are held to, and proof that the platform the unit
 * tests and benchmarks use behaves like a real one.
 */
import { createMemoryAdapter, MemoryPlatform } from '../../fakes/memory/index.js';
import type { ConformanceDriver } from './driver.js';
import { describeAdapterConformance } from './suite.js';

const CONVERSATION = 'conformance-user';

async function memoryDriver(): Promise<ConformanceDriver> {
  const platform = new MemoryPlatform();
  const withButtons = () =>
    platform
      .messagesIn(CONVERSATION)
      .filter((message) => message.buttons?.length)
      .at(-1);
  return {
    createAdapter: (instance) => createMemoryAdapter({ platform, bot: 'main', instance: `gateway-${instance}` }),
    async userSends(text) {
      await platform.userSends('main', CONVERSATION, text);
    },
    async userSendsFile(file, caption) {
      const attachment = platform.addFile({
        bytes: file.bytes,
        fileName: file.fileName,
        mimeType: file.mimeType,
        kind: file.as === 'photo' ? 'image' : 'document',
      });
      await platform.userSends('main', CONVERSATION, caption, { attachments: [attachment] });
    },
    async userSendsGoneFile(file, caption) {
      const attachment = platform.addFile({
        bytes: file.bytes,
        fileName: file.fileName,
        mimeType: file.mimeType,
        kind: file.as === 'photo' ? 'image' : 'document',
      });
      platform.forgetFile(attachment.ref!);
      await platform.userSends('main', CONVERSATION, caption, { attachments: [attachment] });
    },
    async userSendsTwice(text) {
      const message = platform.inbound('main', CONVERSATION, text);
      await platform.deliver(message);
      await platform.deliver({ ...message });
    },
    buttons: () => withButtons()?.buttons?.map((button) => button.label) ?? [],
    async pressButton(label) {
      await platform.pressButton('main', CONVERSATION, label);
    },
    screen: () => platform.textsIn(CONVERSATION),
    renders: () => platform.rendersIn(CONVERSATION),
    async rateLimitNextFinal() {
      platform.failNext('final', 'rate-limited', { retryAfterMs: 200 });
    },
    async goUnreachable() {
      platform.reachable = false;
    },
    async comeBack() {
      platform.reachable = true;
    },
    async close() {},
  };
}

describeAdapterConformance({ platform: 'memory', createDriver: memoryDriver });
