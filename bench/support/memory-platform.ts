/**
 * The in-memory platform (fakes/memory) dressed as Telegram for the benchmarks:
 * Telegram's capabilities, drafts in private chats and edits in groups, so that a
 * benchmark can drive `gateway.sink.accept` directly and measure the core without
 * grammY, HTTP or a fake server. Each platform call may take a simulated round
 * trip; the text shows halfway through it.
 */
import { createMemoryAdapter, MemoryPlatform, type MemoryAdapter, type MemoryCall } from '../../fakes/memory/index.js';
import { telegramCapabilities, withoutDrafts } from '../../adapters/telegram/capabilities.js';
import type { Outbound, PlatformUser } from '../../src/contract.js';

/** Calls that show text in the chat. */
const VISIBLE = new Set<MemoryCall['kind']>(['send', 'edit', 'draft']);

export class BenchPlatform {
  readonly adapter: MemoryAdapter;
  /** Conversation id → when text first became visible there (draft or message), clock ms. */
  readonly firstVisibleAt = new Map<string, number>();
  /** Sends and edits that showed exactly `finalText`: one per completed answer. */
  finalsShown = 0;
  finalText = '';
  private readonly platform: MemoryPlatform;

  constructor(
    private readonly bot: string,
    clock: () => number,
    /** Simulated platform round trip per call (ms). */
    roundTripMs = 0,
    /** The conversations' platform name: a bench that answers conversations written as another platform's names it. */
    platformName = 'bench',
  ) {
    this.platform = new MemoryPlatform({
      name: platformName,
      now: clock,
      rules: { latencyMs: roundTripMs },
      onCall: (call) => this.seen(call),
    });
    let groupOutbound: Outbound | undefined;
    this.adapter = createMemoryAdapter({
      platform: this.platform,
      bot,
      capabilities: telegramCapabilities({ localApi: false }),
      methods: { edit: true, draft: true },
      outboundFor: (outbound, isGroup) => (isGroup ? (groupOutbound ??= withoutDrafts(outbound)) : outbound),
    });
  }

  /** Platform calls so far (typing included). */
  get calls(): number {
    return this.platform.calls.length;
  }

  /** Hands a user's message to the gateway; resolves once it is queued. */
  async userSends(
    conversationId: string,
    text: string,
    isGroup = false,
    user: PlatformUser = { id: `u${conversationId}` },
  ): Promise<void> {
    await this.platform.userSends(this.bot, conversationId, text, { isGroup, user });
  }

  private seen(call: MemoryCall): void {
    if (call.result !== 'ok' || !VISIBLE.has(call.kind)) return;
    if (!this.firstVisibleAt.has(call.conversation)) this.firstVisibleAt.set(call.conversation, call.at);
    if (call.kind !== 'draft' && call.text === this.finalText) this.finalsShown++;
  }
}
